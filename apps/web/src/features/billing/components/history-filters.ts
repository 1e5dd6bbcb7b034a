/** The SPEC §3 filter values and their labels, shared by the history tables. */
import {
  PACKAGE_STATUSES,
  PACKAGE_TYPE_FILTERS,
  PAYMENT_CHANNEL_FILTERS,
  SORT_ORDERS,
} from '@rpc/contract';
import type { TFunction } from 'i18next';

export function channelOptions(t: TFunction<'billing'>) {
  return PAYMENT_CHANNEL_FILTERS.map((value) => ({ value, label: t(`channel.${value}`) }));
}

export function packageTypeOptions(t: TFunction<'billing'>) {
  return PACKAGE_TYPE_FILTERS.map((value) => ({
    value,
    label: value === 'all' ? t('filter.allTypes') : t(`packageType.${value}`),
  }));
}

export function statusOptions(t: TFunction<'billing'>) {
  return (['all', ...PACKAGE_STATUSES] as const).map((value) => ({
    value,
    label: t(`status.${value}`),
  }));
}

export function sortOptions(t: TFunction<'billing'>) {
  return SORT_ORDERS.map((value) => ({ value, label: t(`sort.${value}`) }));
}
