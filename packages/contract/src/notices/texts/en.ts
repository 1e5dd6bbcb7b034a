/** The notice wording in English (SPEC §8), for the web app (loaded with its `notices` texts) and the mails. */
import type { TNoticeTexts } from '../render-notice-text';

export const NOTICE_TEXTS_EN: TNoticeTexts = {
  types: {
    deposit: {
      title: 'Deposit received',
      content:
        'Your deposit of {{coinAmount}} {{coin}} (about ${{usdAmount}}) has arrived in your wallet.',
    },
    expired: {
      title: 'Package expired',
      content: 'Your package {{skuName}} expired on {{time}}.',
    },
    low_balance: {
      title: 'Wallet balance is low',
      content: 'Your wallet balance is down to ${{amount}}. Top up to keep your services running.',
    },
    low_ru: {
      title: 'RU balance is low',
      content: 'Your account has {{amount}} RU left. Add RUs to avoid interruptions.',
    },
    auto_renew_success: {
      title: 'Auto-renewal succeeded',
      content: '{{skuName}} was renewed automatically for ${{usdAmount}}.',
    },
    auto_renew_off: {
      title: 'Auto-renewal is off',
      content: '{{skuName}} will not be renewed when it ends on {{time}}.',
    },
    ru_pkg_running_out: {
      title: 'Package running out',
      content_one: '{{skuName}} will run out in {{count}} day.',
      content_other: '{{skuName}} will run out in {{count}} days.',
    },
    register_gift: {
      title: 'Welcome gift',
      content: '{{amount}} RU have been added to your account.',
    },
    monthly_gift: {
      title: 'Monthly free RU',
      content: 'Your monthly {{amount}} free RU ({{skuName}}) have been added to your account.',
    },
    file_download: {
      title: 'Your export is ready',
      content: 'The {{exportKind}} export {{name}} is ready to download.',
    },
    init_by_and_auto_scaling: {
      title: 'Pay As You Go with auto scaling',
      content:
        'Your account now uses Pay As You Go with auto scaling: when {{skuName}} runs out, RUs are bought automatically.',
    },
    init_only_by: {
      title: 'Pay As You Go',
      content:
        'Your account now uses Pay As You Go without auto scaling: add RUs yourself before they run out.',
    },
    api_service_is_paused: {
      title: 'API service paused',
      content:
        'Your account has no RU left, so requests on {{name}} are refused. Add RUs to resume.',
    },
    auto_scaling_failed: {
      title: 'Auto scaling failed',
      content:
        'Auto scaling could not buy {{skuName}} (${{usdAmount}}): your wallet balance is too low.',
    },
    free_auto_scaling_failed: {
      title: 'Auto scaling failed',
      content:
        'Your free RUs ran out and auto scaling could not buy {{skuName}}: your wallet balance is too low.',
    },
    message_enterprise_package_send: {
      title: 'Enterprise package added',
      content: 'The enterprise package {{skuName}} has been added to your account.',
    },
    buy_package: {
      title: 'Package purchased',
      content: 'You bought {{skuName}} for ${{usdAmount}}.',
    },
    credit_package_sent: {
      title: 'Credit package added',
      content: 'The credit package {{skuName}} with {{amount}} RU has been added to your account.',
    },
    team_remove_member: {
      title: 'Removed from a team',
      content: 'You were removed from the team {{teamName}}.',
    },
    team_approve_invite: {
      title: 'Invitation accepted',
      content: '{{userName}} joined the team {{teamName}}.',
    },
    team_disband: {
      title: 'Team disbanded',
      content: 'The team {{teamName}} was disbanded.',
    },
    apikey_feature_update: {
      title: 'API key feature changed',
      content: '{{featureName}} was turned {{state}} for API key {{apikeyName}}.',
    },
    apikey_delete: {
      title: 'API key deleted',
      content: 'API key {{apikeyName}} was deleted; requests with it are refused.',
    },
    team_member_leave: {
      title: 'Member left the team',
      content: '{{userName}} left the team {{teamName}}.',
    },
    card_auto_scaling_failed: {
      title: 'Card payment failed',
      content:
        'Auto scaling could not charge your card ${{usdAmount}} for {{skuName}}. Check your saved card.',
    },
    free_card_auto_scaling_failed: {
      title: 'Card payment failed',
      content:
        'Your free RUs ran out and auto scaling could not charge your card for {{skuName}}. Check your saved card.',
    },
  },
  serverTexts: {
    team_balance_moved: {
      title: 'Team balance moved to your wallet',
      content:
        'The team {{teamName}} was disbanded; the ${{usdAmount}} left in its wallet is now in your personal wallet.',
    },
    team_late_credit_moved: {
      title: 'Late payment to a disbanded team',
      content:
        '${{usdAmount}} reached the team {{teamName}} after it was disbanded (a deposit or card payment confirmed late) and is now in your personal wallet.',
    },
    team_late_usage_charged: {
      title: "Disbanded team's last usage charged",
      content:
        "The team {{teamName}}'s last API calls, billed after it was disbanded, came to ${{usdAmount}}; this was charged to your personal wallet.",
    },
  },
  features: {
    archive_mode: 'Archive mode',
    mev_protection: 'MEV protection',
    bundler: 'Bundler',
  },
  featureState: {
    on: 'on',
    off: 'off',
  },
  exportKind: {
    deposit: 'deposit',
    purchase: 'purchase',
    generic: 'file',
  },
};
