/** The notice wording in Chinese (SPEC §8), for the web app (loaded with its `notices` texts) and the mails. */
import type { TNoticeTexts } from '../render-notice-text';

export const NOTICE_TEXTS_ZH: TNoticeTexts = {
  types: {
    deposit: {
      title: '充值已到账',
      content: '您充值的 {{coinAmount}} {{coin}}（约 ${{usdAmount}}）已到账。',
    },
    expired: {
      title: '套餐已过期',
      content: '您的套餐 {{skuName}} 已于 {{time}} 过期。',
    },
    low_balance: {
      title: '钱包余额不足',
      content: '您的钱包余额仅剩 ${{amount}}，请及时充值以免服务中断。',
    },
    low_ru: {
      title: 'RU 余额不足',
      content: '您的账户仅剩 {{amount}} RU，请及时补充以免服务中断。',
    },
    auto_renew_success: {
      title: '自动续费成功',
      content: '{{skuName}} 已自动续费，扣费 ${{usdAmount}}。',
    },
    auto_renew_off: {
      title: '自动续费已关闭',
      content: '{{skuName}} 将于 {{time}} 到期，到期后不会自动续费。',
    },
    ru_pkg_running_out: {
      title: '套餐即将用完',
      content_one: '{{skuName}} 将在 {{count}} 天后用完。',
      content_other: '{{skuName}} 将在 {{count}} 天后用完。',
    },
    register_gift: {
      title: '注册礼包',
      content: '已向您的账户赠送 {{amount}} RU。',
    },
    monthly_gift: {
      title: '每月免费 RU',
      content: '本月的 {{amount}} 免费 RU（{{skuName}}）已发放到您的账户。',
    },
    file_download: {
      title: '导出文件已就绪',
      content: '{{exportKind}}导出文件 {{name}} 已可下载。',
    },
    init_by_and_auto_scaling: {
      title: '按量付费并自动扩容',
      content: '您的账户已改为按量付费并开启自动扩容：{{skuName}} 用完时将自动购买 RU。',
    },
    init_only_by: {
      title: '按量付费',
      content: '您的账户已改为按量付费，未开启自动扩容：请在 RU 用完前自行补充。',
    },
    api_service_is_paused: {
      title: 'API 服务已暂停',
      content: '您的账户 RU 已用完，{{name}} 上的请求将被拒绝。补充 RU 后即可恢复。',
    },
    auto_scaling_failed: {
      title: '自动扩容失败',
      content: '钱包余额不足，自动扩容未能购买 {{skuName}}（${{usdAmount}}）。',
    },
    free_auto_scaling_failed: {
      title: '自动扩容失败',
      content: '您的免费 RU 已用完，且钱包余额不足，自动扩容未能购买 {{skuName}}。',
    },
    message_enterprise_package_send: {
      title: '企业套餐已发放',
      content: '企业套餐 {{skuName}} 已发放到您的账户。',
    },
    buy_package: {
      title: '套餐购买成功',
      content: '您已购买 {{skuName}}，支付 ${{usdAmount}}。',
    },
    credit_package_sent: {
      title: '信用套餐已发放',
      content: '包含 {{amount}} RU 的信用套餐 {{skuName}} 已发放到您的账户。',
    },
    team_remove_member: {
      title: '已被移出团队',
      content: '您已被移出团队 {{teamName}}。',
    },
    team_approve_invite: {
      title: '邀请已接受',
      content: '{{userName}} 已加入团队 {{teamName}}。',
    },
    team_disband: {
      title: '团队已解散',
      content: '团队 {{teamName}} 已解散。',
    },
    apikey_feature_update: {
      title: 'API 密钥功能已变更',
      content: 'API 密钥 {{apikeyName}} 的{{featureName}}已{{state}}。',
    },
    apikey_delete: {
      title: 'API 密钥已删除',
      content: 'API 密钥 {{apikeyName}} 已删除，使用它的请求将被拒绝。',
    },
    team_member_leave: {
      title: '成员已退出团队',
      content: '{{userName}} 已退出团队 {{teamName}}。',
    },
    card_auto_scaling_failed: {
      title: '银行卡扣款失败',
      content:
        '自动扩容未能从您的银行卡扣款 ${{usdAmount}} 购买 {{skuName}}，请检查已保存的银行卡。',
    },
    free_card_auto_scaling_failed: {
      title: '银行卡扣款失败',
      content:
        '您的免费 RU 已用完，自动扩容未能从您的银行卡扣款购买 {{skuName}}，请检查已保存的银行卡。',
    },
  },
  serverTexts: {
    team_balance_moved: {
      title: '团队余额已转入您的钱包',
      content: '团队 {{teamName}} 已解散，其钱包中剩余的 ${{usdAmount}} 已转入您的个人钱包。',
    },
    team_late_credit_moved: {
      title: '已解散团队的迟到款项',
      content:
        '团队 {{teamName}} 解散后到账的 ${{usdAmount}}（稍后确认的充值或银行卡付款）已转入您的个人钱包。',
    },
    team_late_usage_charged: {
      title: '已解散团队的最后用量已扣款',
      content:
        '团队 {{teamName}} 解散后结算的最后一批 API 调用共计 ${{usdAmount}}，已从您的个人钱包扣除。',
    },
  },
  features: {
    archive_mode: '归档模式',
    mev_protection: 'MEV 保护',
    bundler: 'Bundler',
  },
  featureState: {
    on: '开启',
    off: '关闭',
  },
  exportKind: {
    deposit: '充值记录',
    purchase: '购买记录',
    generic: '数据',
  },
};
