/** One button per third-party provider the operator configured (none configured: nothing is shown). */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getPublicConfigQueryOptions } from '../../lib/get-public-config';
import { startOauth } from '../../lib/oauth-attempt';
import { RpcCallError, isCancelledError } from '../../lib/rpc-client';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { SignInIcon } from '../ui/icons';

/** The configured providers, in the operator's order; an older server without the field has none. */
export function useOauthProviders() {
  const config = useQuery(getPublicConfigQueryOptions());
  return config.data?.oauthProviders ?? [];
}

export function OauthSignInButtons() {
  const { t } = useTranslation('sign-in');
  const providers = useOauthProviders();
  const [startingId, setStartingId] = useState<string | null>(null);
  const [failedName, setFailedName] = useState<string | null>(null);

  async function onStart(provider: { id: string; name: string }) {
    setFailedName(null);
    setStartingId(provider.id);
    try {
      await startOauth(provider.id, 'login');
      // The browser is leaving for the provider: the button stays busy.
    } catch (error) {
      setStartingId(null);
      // The client has shown an API error already; anything else is said here.
      if (!(error instanceof RpcCallError) && !isCancelledError(error))
        setFailedName(provider.name);
    }
  }

  if (providers.length === 0) return null;
  return (
    <div className="ui-stack">
      {providers.map((provider) => (
        <Button
          key={provider.id}
          isBlock
          icon={<SignInIcon />}
          isLoading={startingId === provider.id}
          disabled={startingId !== null && startingId !== provider.id}
          onClick={() => void onStart(provider)}
        >
          {t('oauth.signIn', { provider: provider.name })}
        </Button>
      ))}
      {failedName !== null && (
        <Alert type="error" role="alert" title={t('oauth.failed', { provider: failedName })} />
      )}
    </div>
  );
}
