import { PASSWORD_HASH_PREFIX } from '@rpc/contract';
import { md5 } from 'js-md5';

/** The digest that travels instead of the password (SPEC §5): md5(prefix + password), lowercase hex. */
export function hashPassword(plain: string): string {
  return md5(PASSWORD_HASH_PREFIX + plain);
}
