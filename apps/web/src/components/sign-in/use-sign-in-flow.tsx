/**
 * Finishes every kind of sign-in (password, wallet, third party) the same way: a full session goes through the
 * one sign-in path of lib/session; a pending one (twoFactorRequired) is kept aside, in memory only, until its code
 * is given. Until then no after-login step runs: the pending token never reaches the cookie or the store.
 */
import type { TSignInResult } from '@rpc/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { signIn } from '../../lib/session';
import { Alert } from '../ui/alert';
import { abandonPendingSignIn } from './api/verify-two-factor-login';
import { TwoFactorSignInStep } from './two-factor-sign-in-step';

type TSignInFlowOptions = {
  /**
   * the session is in the store: go on (the page navigates). Not called when the page has gone or moved meanwhile:
   * the guard sends a signed-in visitor on as soon as the session is in the store, and the after-login steps that
   * follow can take a while, in which the user may already have clicked elsewhere.
   */
  onSignedIn: () => void;
  /** the pending sign-in ended (too many wrong codes, expired); by default the page shows why */
  onEnded?: () => void;
  /** another page's sign-in ended and sent the user here: say why from the start */
  hasEndedBefore?: boolean;
};

export function useSignInFlow({ onSignedIn, onEnded, hasEndedBefore = false }: TSignInFlowOptions) {
  const { t } = useTranslation('sign-in');
  const [pendingToken, setPendingToken] = useState<string | null>(null);
  const [hasEnded, setHasEnded] = useState(hasEndedBefore);
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  /** where the page is now; null once it has unmounted */
  const hereRef = useRef<string | null>(here);
  hereRef.current = here;
  useEffect(() => {
    hereRef.current = here;
    return () => {
      hereRef.current = null;
    };
  }, [here]);

  async function finish(result: TSignInResult) {
    setHasEnded(false);
    if (result.twoFactorRequired) {
      setPendingToken(result.token);
      return;
    }
    const startedAt = hereRef.current;
    await signIn(result.token);
    if (hereRef.current !== null && hereRef.current === startedAt) onSignedIn();
  }

  function onRestart(reason: 'ended' | 'cancelled') {
    if (reason === 'cancelled' && pendingToken) void abandonPendingSignIn(pendingToken);
    setPendingToken(null);
    if (reason !== 'ended') return;
    if (onEnded) onEnded();
    else setHasEnded(true);
  }

  const twoFactorStep =
    pendingToken === null ? null : (
      <TwoFactorSignInStep pendingToken={pendingToken} onVerified={finish} onRestart={onRestart} />
    );
  const endedNotice = hasEnded ? (
    <Alert type="warning" role="alert" title={t('twoFactorStep.ended')} />
  ) : null;

  return { finish, twoFactorStep, endedNotice };
}
