/** A countdown that keeps a "send again" button disabled for a while after each mail. */
import { useCallback, useEffect, useState } from 'react';

export const RESEND_COOLDOWN_S = 60;

export function useCooldown(seconds: number = RESEND_COOLDOWN_S, isStartedAtMount = false) {
  const [endsAt, setEndsAt] = useState<number | null>(() =>
    isStartedAtMount ? Date.now() + seconds * 1000 : null,
  );
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (endsAt === null) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= endsAt) setEndsAt(null);
    }, 1000);
    return () => clearInterval(timer);
  }, [endsAt]);

  /** Starts the countdown; `until` (epoch ms, e.g. a 10429's attemptsExpireAt) overrides its length. */
  const start = useCallback(
    (until?: number) => {
      const current = Date.now();
      // Accept epoch seconds as well as milliseconds for the server's attemptsExpireAt.
      const untilMs = until !== undefined && until < 1e12 ? until * 1000 : until;
      setNow(current);
      setEndsAt(untilMs !== undefined && untilMs > current ? untilMs : current + seconds * 1000);
    },
    [seconds],
  );

  const remaining = endsAt === null ? 0 : Math.max(0, Math.ceil((endsAt - now) / 1000));
  return { remaining, isCoolingDown: remaining > 0, start };
}
