/**
 * The contract's checks that the sign-in and sign-up forms run (STYLE habit 1: the forms reuse its schemas), in a
 * file of their own: zod and the schemas load with the form's first change (lazy-auth-checks.ts), not with the page.
 */
import { ZTeamNameSchema } from '@rpc/contract';

export { parseEmail } from './query-params';

export function isTeamName(value: string): boolean {
  return ZTeamNameSchema.safeParse(value).success;
}
