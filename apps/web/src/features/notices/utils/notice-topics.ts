/**
 * Notice types grouped by what they are about, for people rather than for the catalogue: the e-mail preferences
 * are chosen per topic, and the type filter lists the types under their topic.
 */
import type { TNoticeType } from '@rpc/contract';

export const NOTICE_TOPIC_IDS = [
  'service',
  'payments',
  'failedPayments',
  'gifts',
  'apiKeys',
  'team',
  'announcements',
  'exports',
] as const;
export type TNoticeTopicId = (typeof NOTICE_TOPIC_IDS)[number];

export const NOTICE_TOPICS: Record<TNoticeTopicId, readonly TNoticeType[]> = {
  service: ['api_service_is_paused', 'low_ru', 'low_balance', 'ru_pkg_running_out', 'expired'],
  payments: [
    'deposit',
    'buy_package',
    'auto_renew_success',
    'auto_renew_off',
    'init_by_and_auto_scaling',
    'init_only_by',
    'message_enterprise_package_send',
    'credit_package_sent',
  ],
  failedPayments: [
    'auto_scaling_failed',
    'free_auto_scaling_failed',
    'card_auto_scaling_failed',
    'free_card_auto_scaling_failed',
  ],
  gifts: ['register_gift', 'monthly_gift', 'activity_gift'],
  apiKeys: ['apikey_feature_update', 'apikey_delete'],
  team: ['team_approve_invite', 'team_member_leave', 'team_remove_member', 'team_disband'],
  announcements: ['normal_success', 'normal_warn', 'normal_fail'],
  exports: ['file_download'],
};

export type TNoticeTopic = { id: TNoticeTopicId; types: TNoticeType[] };

/** The topics with only the given types in each (in topic order), topics left empty dropped. */
export function topicsOf(types: readonly TNoticeType[]): TNoticeTopic[] {
  const present = new Set(types);
  return NOTICE_TOPIC_IDS.map((id) => ({
    id,
    types: NOTICE_TOPICS[id].filter((type) => present.has(type)),
  })).filter((topic) => topic.types.length > 0);
}

/** Whether every, some or none of a topic's types is chosen (the topic box is checked, mixed or clear). */
export function topicState(
  topic: TNoticeTopic,
  chosen: ReadonlySet<TNoticeType>,
): 'all' | 'some' | 'none' {
  const count = topic.types.filter((type) => chosen.has(type)).length;
  return count === 0 ? 'none' : count === topic.types.length ? 'all' : 'some';
}

/** The choice with a whole topic switched on or off; kept in the order of `available`. */
export function withTopic(
  chosen: readonly TNoticeType[],
  topic: TNoticeTopic,
  isOn: boolean,
  available: readonly TNoticeType[],
): TNoticeType[] {
  const next = new Set(chosen);
  for (const type of topic.types) {
    if (isOn) next.add(type);
    else next.delete(type);
  }
  return available.filter((type) => next.has(type));
}
