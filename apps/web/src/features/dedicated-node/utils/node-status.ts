/** What each SPEC §3 node status looks like and allows: its tag colours, and whether its endpoints answer. */
import type { TDnStatus } from '@rpc/contract';
import type { CSSProperties } from 'react';
import { TAG_STYLE } from '../../../components/tag-styles';

/**
 * WCAG AA tag colours: the shared gold, blue and green, and red and grey made the same way (the palette's tint and
 * border, its darkest shade for the text). The status is always written in the tag too, never colour alone.
 */
export const STATUS_TAG_STYLE: Record<TDnStatus, CSSProperties> = {
  online: TAG_STYLE.green,
  pending: TAG_STYLE.blue,
  will_expired: TAG_STYLE.gold,
  expired: { color: '#5c0011', background: '#fff1f0', borderColor: '#ffa39e' },
  stopped: { color: 'rgba(0, 0, 0, 0.88)', background: '#fafafa', borderColor: '#d9d9d9' },
};

/** A node answers at its endpoints while online, and still while its expiry is near. */
export function hasLiveEndpoints(status: TDnStatus): boolean {
  return status === 'online' || status === 'will_expired';
}
