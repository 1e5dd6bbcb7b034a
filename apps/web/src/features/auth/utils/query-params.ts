/** Reading the values that arrive in mail links and between pages, so malformed ones never reach the server. */
import { ZEmailSchema, ZOneTimeCodeSchema } from '@rpc/contract';

/** The code when it is well-formed, else null. */
export function parseCode(raw: string | null) {
  return raw !== null && ZOneTimeCodeSchema.safeParse(raw).success ? raw : null;
}

/** The address, trimmed and lower-cased, when it is valid, else null. */
export function parseEmail(raw: string | null | undefined) {
  if (raw === null || raw === undefined) return null;
  const parsed = ZEmailSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}
