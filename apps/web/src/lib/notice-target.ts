/**
 * Where a notice leads (issue: clicking a notice opens what it is about): the console page that shows or fixes
 * what it reports, as a path without locale prefix; null when there is nothing to open (an announcement, or a
 * team the user is no longer in). Shared by the notifications page and the header's notice preview.
 */
import type { TNotice, TNoticeType } from '@rpc/contract';

const BILLING = '/rpc/billings';
const ENDPOINT = '/rpc/endpoint';
const TEAM = '/rpc/team';

export const NOTICE_TARGETS: Record<TNoticeType, string | null> = {
  // Money, packages and RUs: the wallet and packages.
  deposit: BILLING,
  expired: BILLING,
  low_balance: BILLING,
  low_ru: BILLING,
  auto_renew_success: BILLING,
  auto_renew_off: BILLING,
  ru_pkg_running_out: BILLING,
  register_gift: BILLING,
  monthly_gift: BILLING,
  activity_gift: BILLING,
  // The deposit and purchase exports are downloaded from the billing lists.
  file_download: BILLING,
  init_by_and_auto_scaling: BILLING,
  init_only_by: BILLING,
  api_service_is_paused: BILLING,
  auto_scaling_failed: BILLING,
  free_auto_scaling_failed: BILLING,
  card_auto_scaling_failed: BILLING,
  free_card_auto_scaling_failed: BILLING,
  message_enterprise_package_send: BILLING,
  buy_package: BILLING,
  credit_package_sent: BILLING,
  // Announcements carry the server's own text and no subject.
  normal_success: null,
  normal_warn: null,
  normal_fail: null,
  apikey_feature_update: ENDPOINT,
  apikey_delete: ENDPOINT,
  team_approve_invite: TEAM,
  team_member_leave: TEAM,
  // The user is out of that team: there is no page of it to open.
  team_remove_member: null,
  team_disband: null,
};

export function noticeTarget(notice: Pick<TNotice, 'type'>): string | null {
  return NOTICE_TARGETS[notice.type];
}
