/** The error catalogue: every code the console API can answer, with English and Chinese text (SPEC §8). */

export type TErrorEntry = { en: string; zh: string; silent?: boolean };

export const ERROR_CODES = {
  // Envelope and transport (1000x).
  PARSE_ERROR: 10001,
  INVALID_REQUEST: 10002,
  METHOD_NOT_FOUND: 10003,
  INVALID_PARAMS: 10004,
  PAYLOAD_TOO_LARGE: 10005,
  UNSUPPORTED_MEDIA_TYPE: 10006,
  HTTP_METHOD_NOT_ALLOWED: 10007,
  INTERNAL_ERROR: 10500,
  // Silent rejections (SPEC §8): the client shows no popup.
  CODE_USED: 10020,
  LINK_INVALID: 10400,
  NOT_FOUND: 50404,
  CONFLICT: 50409,
  // Session (SPEC §8): the client logs out.
  SESSION_MISSING: 10101,
  SESSION_EXPIRED: 10102,
  SESSION_REVOKED: 10103,
  /** signed in, but the two-factor code is still owed: only hub_verifyTwoFactorLogin and hub_logout answer */
  TWO_FACTOR_PENDING: 10104,
  // Accounts (102xx).
  EMAIL_TAKEN: 10201,
  BAD_CREDENTIALS: 10202,
  EMAIL_NOT_CONFIRMED: 10203,
  CONFIRM_CODE_INVALID: 10204,
  RESET_CODE_INVALID: 10205,
  PASSWORD_MISMATCH: 10206,
  WRONG_PASSWORD: 10207,
  EMAIL_ALREADY_CONFIRMED: 10208,
  NO_PASSWORD_SET: 10209,
  // Wallet and third-party sign-in, binding, two-factor (1021x–1022x).
  SIWE_INVALID: 10210,
  SIWE_NONCE_INVALID: 10211,
  IDENTITY_TAKEN: 10212,
  IDENTITY_ALREADY_BOUND: 10213,
  LAST_SIGN_IN_METHOD: 10214,
  OAUTH_PROVIDER_UNKNOWN: 10215,
  OAUTH_STATE_INVALID: 10216,
  OAUTH_EXCHANGE_FAILED: 10217,
  BIND_CODE_INVALID: 10218,
  TWO_FACTOR_REQUIRED: 10219,
  TWO_FACTOR_INVALID: 10220,
  TWO_FACTOR_ALREADY_ON: 10221,
  TWO_FACTOR_NOT_SET_UP: 10222,
  EMAIL_ALREADY_BOUND: 10223,
  /** a change that needs proof it is the user (turning two-factor sign-in on), asked without the password */
  PASSWORD_REQUIRED: 10224,
  /** the same, for a user without a password: the session is older than RECENT_SIGN_IN_MS */
  RECENT_SIGN_IN_REQUIRED: 10225,
  // Teams and permissions (103xx).
  TEAM_FORBIDDEN: 10301,
  TEAM_ROLE_FORBIDDEN: 10302,
  TEAM_OWNER_CANNOT_LEAVE: 10303,
  TEAM_ALREADY_MEMBER: 10304,
  TEAM_INVITE_PENDING: 10305,
  TEAM_INVITE_INVALID: 10306,
  TEAM_INVITE_SELF: 10307,
  TEAM_OWNED_LIMIT: 10308,
  TEAM_RANK_FORBIDDEN: 10309,
  TEAM_USER_CODE_UNKNOWN: 10310,
  TEAM_MEMBER_LIMIT: 10311,
  TEAM_NOT_A_TEAM: 10312,
  TEAM_IN_ARREARS: 10313,
  // Reports (106xx).
  REPORT_RANGE_REVERSED: 10601,
  REPORT_RANGE_TOO_LONG: 10602,
  REPORT_RANGE_IN_FUTURE: 10603,
  REPORT_RANGE_BEFORE_RETENTION: 10604,
  REPORT_UNKNOWN_KEY: 10605,
  REPORT_UNKNOWN_CHAIN: 10606,
  REPORT_BAD_TIME_ZONE: 10607,
  // Wallet, packages and deposits.
  INSUFFICIENT_BALANCE: 10701,
  SKU_UNAVAILABLE: 10702,
  PRICE_CHANGED: 10703,
  DISCOUNT_CODE_INVALID: 10704,
  DISCOUNT_CODE_USED: 10705,
  IDEMPOTENCY_KEY_REUSED: 10706,
  DEPOSITS_NOT_CONFIGURED: 10707,
  DEPOSIT_CHAIN_UNSUPPORTED: 10708,
  AUTO_RENEW_UNAVAILABLE: 10709,
  // Cards (108xx).
  CARDS_NOT_CONFIGURED: 10801,
  CARD_REQUIRED: 10802,
  CARD_PAYMENT_UNAVAILABLE: 10803,
  NOTHING_TO_PAY_BY_CARD: 10804,
  // Dedicated nodes (109xx).
  DN_CHAIN_UNKNOWN: 10901,
  DN_NODE_TYPE_UNAVAILABLE: 10902,
  DN_REGION_UNKNOWN: 10903,
  DN_PERIOD_UNKNOWN: 10904,
  DN_CHAIN_NOT_PROVISIONABLE: 10905,
  DN_NOT_RENEWABLE: 10906,
  // Avatars (110xx): issue 16.
  /** the image is over AVATAR_MAX_BYTES */
  AVATAR_TOO_LARGE: 11001,
  /** not a PNG, JPEG or WebP by its bytes (whatever its name or declared type) */
  AVATAR_UNSUPPORTED_TYPE: 11002,
  /** the bytes claim a supported type but do not decode */
  AVATAR_INVALID_IMAGE: 11003,
  /** more pixels than AVATAR_MAX_PIXELS (image bombs) */
  AVATAR_TOO_MANY_PIXELS: 11004,
  /** not exactly one file in the form field `file` */
  AVATAR_FILE_REQUIRED: 11005,
  // Support tickets, banners, event tracking (111xx): issue 16.
  /** POST /support/ticket: the attachment is over TICKET_ATTACHMENT_MAX_BYTES */
  TICKET_ATTACHMENT_TOO_LARGE: 11101,
  /** POST /support/ticket: the attachment's bytes are none of TICKET_ATTACHMENT_TYPES */
  TICKET_ATTACHMENT_TYPE: 11102,
  /** POST /support/ticket: apiKeyId is not a live key of the acting account */
  TICKET_API_KEY_UNKNOWN: 11103,
  /** POST /support/ticket: not multipart/form-data, more than one file, unknown or repeated fields */
  TICKET_FORM_INVALID: 11104,
  /** hub_saveEventTracking: an event's time is more than a day old or more than a minute ahead */
  TRACKING_EVENT_TIME: 11105,
  // Throttling.
  RATE_LIMITED: 10429,
} as const;

export type TErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

export const ERROR_CATALOGUE: Record<TErrorCode, TErrorEntry> = {
  10001: { en: 'The request body is not valid JSON.', zh: '请求内容不是有效的 JSON。' },
  10002: {
    en: 'The request must be an object with method, params and id.',
    zh: '请求必须是包含 method、params 和 id 的对象。',
  },
  10003: { en: 'Unknown method.', zh: '未知的方法。' },
  10004: { en: 'Invalid parameters.', zh: '参数无效。' },
  10005: { en: 'The request is too large.', zh: '请求内容过大。' },
  10006: {
    en: 'Send the request as application/json.',
    zh: '请以 application/json 格式发送请求。',
  },
  10007: { en: 'Send the request with HTTP POST.', zh: '请使用 HTTP POST 方法发送请求。' },
  10500: {
    en: 'Something went wrong on our side. Please try again.',
    zh: '服务器出现错误，请稍后重试。',
  },
  10020: { en: 'This code has already been used.', zh: '该验证码已被使用。', silent: true },
  10400: { en: 'This link is invalid or has expired.', zh: '该链接无效或已过期。', silent: true },
  50404: { en: 'Not found.', zh: '未找到。', silent: true },
  50409: { en: 'Conflict with the current state.', zh: '与当前状态冲突。', silent: true },
  10101: { en: 'Please sign in.', zh: '请先登录。' },
  10102: { en: 'Your session has expired. Please sign in again.', zh: '登录已过期，请重新登录。' },
  10104: {
    en: 'Enter your two-factor code to finish signing in.',
    zh: '请输入两步验证码以完成登录。',
  },
  10103: {
    en: 'You have been signed out. Please sign in again.',
    zh: '您已退出登录，请重新登录。',
  },
  10201: { en: 'This e-mail is already registered.', zh: '该邮箱已被注册。' },
  10202: { en: 'Wrong e-mail or password.', zh: '邮箱或密码错误。' },
  10203: {
    en: 'Please confirm your e-mail address first.',
    zh: '请先验证您的邮箱地址。',
  },
  10204: {
    en: 'The confirmation link is invalid or has expired.',
    zh: '验证链接无效或已过期。',
  },
  10205: { en: 'The reset link is invalid or has expired.', zh: '重置链接无效或已过期。' },
  10206: { en: 'The passwords do not match.', zh: '两次输入的密码不一致。' },
  10207: { en: 'The current password is wrong.', zh: '当前密码错误。' },
  10208: { en: 'This e-mail is already confirmed.', zh: '该邮箱已验证。' },
  10210: {
    en: 'The wallet signature could not be verified.',
    zh: '无法验证钱包签名。',
  },
  10211: {
    en: 'This sign-in request has expired or was already used. Please try again.',
    zh: '该登录请求已过期或已被使用，请重试。',
  },
  10212: {
    en: 'This wallet or third-party account is already bound to another user.',
    zh: '该钱包或第三方账号已绑定其他用户。',
  },
  10213: {
    en: 'Your account already has one bound. Unbind it first.',
    zh: '您的账户已绑定一个，请先解绑。',
  },
  10214: {
    en: 'This is your only way to sign in. Add another one before removing it.',
    zh: '这是您唯一的登录方式，请先添加其他登录方式再移除。',
  },
  10215: { en: 'This sign-in provider is not available.', zh: '该登录方式不可用。' },
  10216: {
    en: 'This sign-in attempt has expired or did not start here. Please try again.',
    zh: '该登录请求已过期或并非从此处发起，请重试。',
  },
  10217: {
    en: 'The provider did not confirm the sign-in. Please try again.',
    zh: '第三方未确认此次登录，请重试。',
  },
  10218: { en: 'The code is wrong or has expired.', zh: '验证码错误或已过期。' },
  10219: { en: 'Enter your two-factor code.', zh: '请输入两步验证码。' },
  10220: { en: 'The two-factor code is wrong.', zh: '两步验证码错误。' },
  10221: { en: 'Two-factor sign-in is already on.', zh: '两步验证已开启。' },
  10222: {
    en: 'Two-factor sign-in is not set up. Start again.',
    zh: '尚未设置两步验证，请重新开始。',
  },
  10223: { en: 'Your account already has an e-mail address.', zh: '您的账户已绑定邮箱。' },
  10224: { en: 'Enter your current password to continue.', zh: '请输入当前密码以继续。' },
  10225: {
    en: 'For your safety, sign in again, then try this within 15 minutes.',
    zh: '为保障账户安全，请重新登录，并在 15 分钟内完成此操作。',
  },
  10209: { en: 'This account has no password yet.', zh: '该账户尚未设置密码。' },
  10301: {
    en: 'You are not a member of this team or lack the role for this action.',
    zh: '您不是该团队成员，或没有执行此操作的权限。',
  },
  10302: {
    en: 'Your role in this team does not allow this action.',
    zh: '您在该团队中的角色无权执行此操作。',
  },
  10303: {
    en: 'The owner cannot leave the team: hand it over to another member or disband it.',
    zh: '团队所有者不能退出团队：请先转让团队或解散团队。',
  },
  10304: { en: 'This user is already a member of the team.', zh: '该用户已是团队成员。' },
  10305: {
    en: 'An invitation to this user is already pending.',
    zh: '已向该用户发出邀请，正在等待回复。',
  },
  10306: {
    en: 'This invitation is no longer valid.',
    zh: '该邀请已失效。',
  },
  10307: { en: 'You cannot invite yourself.', zh: '不能邀请自己。' },
  10308: {
    en: 'You own, or created in the last 30 days, the most teams allowed (20).',
    zh: '您拥有或在最近 30 天内创建的团队数量已达上限（20 个）。',
  },
  10309: {
    en: 'You can only act on members whose role is below yours.',
    zh: '您只能操作角色低于您的成员。',
  },
  10310: { en: 'No user has this user code.', zh: '没有用户使用此用户码。' },
  10311: {
    en: 'The team has the most members allowed (100, invitations included).',
    zh: '团队成员数量已达上限（100 人，含待接受的邀请）。',
  },
  10312: {
    en: 'Switch to a team to see its profile.',
    zh: '请先切换到团队再查看团队信息。',
  },
  10313: {
    en: "This team's wallet is in arrears: add funds to pay them off before disbanding it.",
    zh: '该团队钱包处于欠费状态：请先充值还清欠款，再解散团队。',
  },
  10601: {
    en: 'The end of the time range must be after its start.',
    zh: '时间范围的结束时间必须晚于开始时间。',
  },
  10602: {
    en: 'This time range is too long for the chosen interval: by minute up to 1 day, by hour up to 31 days, by day up to 366 days.',
    zh: '所选粒度的时间范围过长：按分钟最多 1 天，按小时最多 31 天，按天最多 366 天。',
  },
  10603: { en: 'The time range starts in the future.', zh: '时间范围的开始时间不能晚于当前时间。' },
  10604: {
    en: 'Per-minute detail is no longer kept for this period. Choose hourly or daily.',
    zh: '该时间段已不保留按分钟的明细，请选择按小时或按天查看。',
  },
  10605: { en: 'This API key does not belong to the account.', zh: '该 API Key 不属于当前账户。' },
  10606: { en: 'Unknown network.', zh: '未知的网络。' },
  10607: { en: 'Unknown time zone.', zh: '未知的时区。' },
  10701: {
    en: 'Your wallet balance is not enough for this purchase. Please deposit first.',
    zh: '钱包余额不足，请先充值。',
  },
  10702: { en: 'This package is not available.', zh: '该套餐不可购买。' },
  10703: {
    en: 'The price changed since you confirmed it. Please review the new price.',
    zh: '价格在您确认后已变更，请重新确认价格。',
  },
  10704: { en: 'This discount code is invalid or has expired.', zh: '优惠码无效或已过期。' },
  10705: { en: 'This discount code has already been used.', zh: '该优惠码已被使用。' },
  10706: {
    en: 'This request key was already used for a different purchase.',
    zh: '该请求标识已用于另一笔购买。',
  },
  10707: { en: 'Crypto deposits are not configured.', zh: '尚未配置加密货币充值。' },
  10708: { en: 'Deposits are not accepted on this network.', zh: '该网络不支持充值。' },
  10709: { en: 'This package cannot be renewed automatically.', zh: '该套餐不支持自动续费。' },
  10801: {
    en: 'Card payments are not configured on this server.',
    zh: '本服务尚未配置银行卡支付。',
  },
  10802: { en: 'Add a card first.', zh: '请先添加一张银行卡。' },
  10803: {
    en: 'The card payment service did not answer. Nothing was charged; please try again.',
    zh: '银行卡支付服务暂时无响应，未产生扣款，请稍后重试。',
  },
  10804: {
    en: 'This package costs nothing: get it from the wallet instead of by card.',
    zh: '该套餐无需付款，请直接通过钱包获取。',
  },
  10901: {
    en: 'Dedicated nodes are not offered for this network.',
    zh: '该网络不提供专属节点。',
  },
  10902: {
    en: 'This node type is not offered for this network.',
    zh: '该网络不提供此节点类型。',
  },
  10903: {
    en: 'This region is not offered for this network.',
    zh: '该网络不提供此地区。',
  },
  10904: {
    en: 'This period is not offered. Choose one of the listed periods.',
    zh: '不提供此购买时长，请从列出的时长中选择。',
  },
  10905: {
    en: 'Dedicated nodes of this network cannot be started on this server yet.',
    zh: '本服务暂时无法启动该网络的专属节点。',
  },
  10906: {
    en: 'This node expired and its grace period is over: its data was deleted. Buy a new node instead.',
    zh: '该节点已过期且宽限期已过，数据已删除，无法续费。请购买新节点。',
  },
  // Avatars (110xx).
  11001: {
    en: 'The image is too large: at most 5 MB.',
    zh: '图片过大：最大 5 MB。',
  },
  11002: {
    en: 'Only PNG, JPEG and WebP images can be used as an avatar.',
    zh: '头像仅支持 PNG、JPEG 和 WebP 图片。',
  },
  11003: {
    en: 'The image could not be read. It may be damaged; try another file.',
    zh: '无法读取该图片，文件可能已损坏，请换一个文件。',
  },
  11004: {
    en: 'The image has too many pixels: at most 36 megapixels (e.g. 6000 × 6000).',
    zh: '图片像素过多：最多 3600 万像素（例如 6000 × 6000）。',
  },
  11005: {
    en: 'Send exactly one image in the form field "file".',
    zh: '请在表单字段 "file" 中上传且仅上传一张图片。',
  },
  // Support tickets, banners, event tracking (111xx).
  11101: {
    en: 'The attachment is too large (2 MB at most).',
    zh: '附件过大（最大 2 MB）。',
  },
  11102: {
    en: 'The attachment must be a PNG or JPEG image, a PDF or a plain text file.',
    zh: '附件必须是 PNG 或 JPEG 图片、PDF 或纯文本文件。',
  },
  11103: {
    en: 'That API key is not one of this account’s keys.',
    zh: '该 API 密钥不属于当前账户。',
  },
  11104: {
    en: 'The ticket form is not valid. Send category, subject, body and at most one attachment.',
    zh: '工单表单无效。请提交类别、主题、内容，以及最多一个附件。',
  },
  11105: {
    en: 'An event time is too old or in the future.',
    zh: '事件时间过早或晚于当前时间。',
  },
  10429: { en: 'Too many attempts. Please try again later.', zh: '尝试次数过多，请稍后再试。' },
};

/** Codes that mean the session is unusable: the client logs out (SPEC §8). */
export const SESSION_ERROR_CODES: readonly number[] = [10101, 10102, 10103];

/** Codes the client never shows a popup for (SPEC §8). */
export const SILENT_ERROR_CODES: readonly number[] = [50404, 50409, 10020, 10400];

/** Which throttle a 10429 came from; the client words its popup by it (SPEC §8). */
export const LIMIT_TYPES = ['type1', 'type2', 'type3'] as const;
export type TLimitType = (typeof LIMIT_TYPES)[number];
