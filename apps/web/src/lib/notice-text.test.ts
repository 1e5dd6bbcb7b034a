/** SPEC §3/§8 notice texts: every type in both languages from a sample expand, the cutoff and server-text types. */
import type { TNotice, TNoticeType } from '@rpc/contract';
import { NOTICE_CUTOFF_MS, NOTICE_TYPES, SERVER_TEXT_TYPES } from '@rpc/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from './i18n';
import { NOTICE_TYPE_META, renderNotice } from './notice-text';

beforeAll(async () => {
  await initI18n('en');
});

const AFTER_CUTOFF = NOTICE_CUTOFF_MS + 1;
// Local time, so the formatted date does not depend on the machine's zone.
const TIME = new Date(2026, 0, 31, 12, 0).getTime();

const sampleExpand = {
  coinAmount: '250.5',
  coin: 'USDT',
  usdAmount: '250.5',
  skuName: 'Growth',
  timeStamp: TIME,
  leftDays: 3,
  amount: 1500000,
  name: 'Ethereum',
  featureName: 'archive_mode',
  apikeyName: 'Prod',
  userName: 'grace',
  teamName: 'Core',
  teamId: 't1',
  type: 'on',
};

function notice(type: TNoticeType, over: Partial<TNotice> = {}): TNotice {
  return {
    id: `n-${type}`,
    type,
    title: 'Server title',
    content: 'Server content',
    createdAt: AFTER_CUTOFF,
    read: false,
    teamId: null,
    expand: {
      ...sampleExpand,
      ...(type === 'file_download' ? { type: 'deposit', name: 'deposits.csv' } : {}),
    },
    ...over,
  };
}

type TRow = [TNoticeType, 'success' | 'warn' | 'error', string, string, string, string];

// type, severity, English title, English content, Chinese title, Chinese content
const ROWS: TRow[] = [
  [
    'deposit',
    'success',
    'Deposit received',
    'Your deposit of 250.5 USDT (about $250.5) has arrived in your wallet.',
    '充值已到账',
    '您充值的 250.5 USDT（约 $250.5）已到账。',
  ],
  [
    'expired',
    'error',
    'Package expired',
    'Your package Growth expired on 2026-01-31 12:00.',
    '套餐已过期',
    '您的套餐 Growth 已于 2026-01-31 12:00 过期。',
  ],
  [
    'low_balance',
    'warn',
    'Wallet balance is low',
    'Your wallet balance is down to $1,500,000. Top up to keep your services running.',
    '钱包余额不足',
    '您的钱包余额仅剩 $1,500,000，请及时充值以免服务中断。',
  ],
  [
    'low_ru',
    'warn',
    'RU balance is low',
    'Your account has 1,500,000 RU left. Add RUs to avoid interruptions.',
    'RU 余额不足',
    '您的账户仅剩 1,500,000 RU，请及时补充以免服务中断。',
  ],
  [
    'auto_renew_success',
    'success',
    'Auto-renewal succeeded',
    'Growth was renewed automatically for $250.5.',
    '自动续费成功',
    'Growth 已自动续费，扣费 $250.5。',
  ],
  [
    'auto_renew_off',
    'warn',
    'Auto-renewal is off',
    'Growth will not be renewed when it ends on 2026-01-31 12:00.',
    '自动续费已关闭',
    'Growth 将于 2026-01-31 12:00 到期，到期后不会自动续费。',
  ],
  [
    'ru_pkg_running_out',
    'warn',
    'Package running out',
    'Growth will run out in 3 days.',
    '套餐即将用完',
    'Growth 将在 3 天后用完。',
  ],
  [
    'register_gift',
    'success',
    'Welcome gift',
    '1,500,000 RU have been added to your account.',
    '注册礼包',
    '已向您的账户赠送 1,500,000 RU。',
  ],
  [
    'monthly_gift',
    'success',
    'Monthly free RU',
    'Your monthly 1,500,000 free RU (Growth) have been added to your account.',
    '每月免费 RU',
    '本月的 1,500,000 免费 RU（Growth）已发放到您的账户。',
  ],
  ['activity_gift', 'success', 'Server title', 'Server content', 'Server title', 'Server content'],
  [
    'file_download',
    'success',
    'Your export is ready',
    'The deposit export deposits.csv is ready to download.',
    '导出文件已就绪',
    '充值记录导出文件 deposits.csv 已可下载。',
  ],
  [
    'init_by_and_auto_scaling',
    'success',
    'Pay As You Go with auto scaling',
    'Your account now uses Pay As You Go with auto scaling: when Growth runs out, RUs are bought automatically.',
    '按量付费并自动扩容',
    '您的账户已改为按量付费并开启自动扩容：Growth 用完时将自动购买 RU。',
  ],
  [
    'init_only_by',
    'success',
    'Pay As You Go',
    'Your account now uses Pay As You Go without auto scaling: add RUs yourself before they run out.',
    '按量付费',
    '您的账户已改为按量付费，未开启自动扩容：请在 RU 用完前自行补充。',
  ],
  [
    'api_service_is_paused',
    'error',
    'API service paused',
    'Your account has no RU left, so requests on Ethereum are refused. Add RUs to resume.',
    'API 服务已暂停',
    '您的账户 RU 已用完，Ethereum 上的请求将被拒绝。补充 RU 后即可恢复。',
  ],
  [
    'auto_scaling_failed',
    'error',
    'Auto scaling failed',
    'Auto scaling could not buy Growth ($250.5): your wallet balance is too low.',
    '自动扩容失败',
    '钱包余额不足，自动扩容未能购买 Growth（$250.5）。',
  ],
  [
    'free_auto_scaling_failed',
    'error',
    'Auto scaling failed',
    'Your free RUs ran out and auto scaling could not buy Growth: your wallet balance is too low.',
    '自动扩容失败',
    '您的免费 RU 已用完，且钱包余额不足，自动扩容未能购买 Growth。',
  ],
  ['normal_success', 'success', 'Server title', 'Server content', 'Server title', 'Server content'],
  ['normal_warn', 'warn', 'Server title', 'Server content', 'Server title', 'Server content'],
  ['normal_fail', 'error', 'Server title', 'Server content', 'Server title', 'Server content'],
  [
    'message_enterprise_package_send',
    'success',
    'Enterprise package added',
    'The enterprise package Growth has been added to your account.',
    '企业套餐已发放',
    '企业套餐 Growth 已发放到您的账户。',
  ],
  [
    'buy_package',
    'success',
    'Package purchased',
    'You bought Growth for $250.5.',
    '套餐购买成功',
    '您已购买 Growth，支付 $250.5。',
  ],
  [
    'credit_package_sent',
    'success',
    'Credit package added',
    'The credit package Growth with 1,500,000 RU has been added to your account.',
    '信用套餐已发放',
    '包含 1,500,000 RU 的信用套餐 Growth 已发放到您的账户。',
  ],
  [
    'team_remove_member',
    'warn',
    'Removed from a team',
    'You were removed from the team Core.',
    '已被移出团队',
    '您已被移出团队 Core。',
  ],
  [
    'team_approve_invite',
    'success',
    'Invitation accepted',
    'grace joined the team Core.',
    '邀请已接受',
    'grace 已加入团队 Core。',
  ],
  [
    'team_disband',
    'error',
    'Team disbanded',
    'The team Core was disbanded.',
    '团队已解散',
    '团队 Core 已解散。',
  ],
  [
    'apikey_feature_update',
    'success',
    'API key feature changed',
    'Archive mode was turned on for API key Prod.',
    'API 密钥功能已变更',
    'API 密钥 Prod 的归档模式已开启。',
  ],
  [
    'apikey_delete',
    'warn',
    'API key deleted',
    'API key Prod was deleted; requests with it are refused.',
    'API 密钥已删除',
    'API 密钥 Prod 已删除，使用它的请求将被拒绝。',
  ],
  [
    'team_member_leave',
    'warn',
    'Member left the team',
    'grace left the team Core.',
    '成员已退出团队',
    'grace 已退出团队 Core。',
  ],
  [
    'card_auto_scaling_failed',
    'error',
    'Card payment failed',
    'Auto scaling could not charge your card $250.5 for Growth. Check your saved card.',
    '银行卡扣款失败',
    '自动扩容未能从您的银行卡扣款 $250.5 购买 Growth，请检查已保存的银行卡。',
  ],
  [
    'free_card_auto_scaling_failed',
    'error',
    'Card payment failed',
    'Your free RUs ran out and auto scaling could not charge your card for Growth. Check your saved card.',
    '银行卡扣款失败',
    '您的免费 RU 已用完，自动扩容未能从您的银行卡扣款购买 Growth，请检查已保存的银行卡。',
  ],
];

describe('renderNotice (SPEC §3, §8)', () => {
  it('has a row for each of the 30 types', () => {
    expect(ROWS.map(([type]) => type).sort()).toEqual([...NOTICE_TYPES].sort());
    expect(NOTICE_TYPES).toHaveLength(30);
  });

  it.each(ROWS)(
    '%s: %s, English and Chinese',
    (type, severity, enTitle, enContent, zhTitle, zhContent) => {
      const en = renderNotice(notice(type), 'en');
      const zh = renderNotice(notice(type), 'zh');
      expect(en).toEqual({
        title: enTitle,
        content: enContent,
        severity,
        icon: NOTICE_TYPE_META[type].icon,
      });
      expect({ title: zh.title, content: zh.content, severity: zh.severity }).toEqual({
        title: zhTitle,
        content: zhContent,
        severity,
      });
    },
  );

  it('names exactly the four server-text types of SPEC §8', () => {
    expect([...SERVER_TEXT_TYPES].sort()).toEqual(
      ['activity_gift', 'normal_fail', 'normal_success', 'normal_warn'].sort(),
    );
  });

  it('shows the server text for notices created before the cutoff, localised text from the cutoff on', () => {
    const before = renderNotice(notice('deposit', { createdAt: NOTICE_CUTOFF_MS - 1 }), 'zh');
    expect(before).toMatchObject({
      title: 'Server title',
      content: 'Server content',
      severity: 'success',
    });
    const at = renderNotice(notice('deposit', { createdAt: NOTICE_CUTOFF_MS }), 'en');
    expect(at.title).toBe('Deposit received');
  });

  it('shows a server-text notice naming a catalogued text (a disbanded team settled) in either language', () => {
    const settled = (textKey: string) =>
      notice('normal_warn', {
        title: "Disbanded team's last usage charged",
        content: 'Server content',
        expand: { textKey, usdAmount: '1.50', teamName: 'Core', teamId: 't1' },
      });
    expect(renderNotice(settled('team_late_usage_charged'), 'en')).toEqual({
      title: "Disbanded team's last usage charged",
      content:
        "The team Core's last API calls, billed after it was disbanded, came to $1.50; this was charged to your personal wallet.",
      severity: 'warn',
      icon: 'exclamation',
    });
    expect(renderNotice(settled('team_late_usage_charged'), 'zh')).toMatchObject({
      title: '已解散团队的最后用量已扣款',
      content: '团队 Core 解散后结算的最后一批 API 调用共计 $1.50，已从您的个人钱包扣除。',
    });
    expect(renderNotice(settled('team_late_credit_moved'), 'zh').title).toBe(
      '已解散团队的迟到款项',
    );
    expect(renderNotice(settled('team_balance_moved'), 'zh').content).toBe(
      '团队 Core 已解散，其钱包中剩余的 $1.50 已转入您的个人钱包。',
    );
    // A key this build does not know: the server's own text, as for any server-text notice.
    expect(renderNotice(settled('not_catalogued'), 'zh').content).toBe('Server content');
  });

  it('uses the singular for one day left and a dash for missing parameters', () => {
    expect(
      renderNotice(
        notice('ru_pkg_running_out', { expand: { skuName: 'Growth', leftDays: 1 } }),
        'en',
      ).content,
    ).toBe('Growth will run out in 1 day.');
    expect(renderNotice(notice('apikey_delete', { expand: {} }), 'en').content).toBe(
      'API key - was deleted; requests with it are refused.',
    );
  });
});
