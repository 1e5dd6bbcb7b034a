/** The URL a stored avatar is served at: relative (the console serves it), versioned by its hash. */
import { AVATAR_PATH } from '@rpc/contract';

/** Characters of the SHA-256 in the `v` parameter: a new image gets a new URL, so caches never hold a stale one. */
export const AVATAR_VERSION_LENGTH = 12;

export function avatarUrl(userId: string, sha256: string): string {
  return `${AVATAR_PATH}/${userId}?v=${sha256.slice(0, AVATAR_VERSION_LENGTH)}`;
}
