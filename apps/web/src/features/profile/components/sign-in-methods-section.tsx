/**
 * "Sign-in methods": e-mail and password (bind an address, or set a password by mail), the wallet, and each
 * configured third-party provider, with bind and unbind. Removing the last way to sign in is refused (10214) and
 * said here in plain words.
 */
import { ERROR_CODES } from '@rpc/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Flex, Popconfirm, Typography, message } from 'antd';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BindEmailForm } from '../../../components/sign-in/bind-email-form';
import { useOauthProviders } from '../../../components/sign-in/oauth-sign-in-buttons';
import { useWalletFeedback } from '../../../components/sign-in/wallet-feedback';
import { getPublicConfigQueryOptions } from '../../../lib/get-public-config';
import { RpcCallError } from '../../../lib/rpc-client';
import type { TUser } from '../../../lib/session';
import { refreshUser } from '../../../lib/session';
import { WALLET_PROVIDER_ID, boundWalletAddress } from '../../../lib/wallet';
import {
  useBindWallet,
  useStartOauthBinding,
  useUnbindOauth,
  useUnbindWallet,
} from '../api/sign-in-methods';
import { ProfileSection } from './profile-section';
import { SetPasswordByMail } from './set-password-by-mail';

/** Runs an unbind; answers whether the server refused it as the last way to sign in. */
async function isRefusedAsLast(unbind: () => Promise<unknown>): Promise<boolean> {
  try {
    await unbind();
    return false;
  } catch (error) {
    // Other errors have had their popup.
    return error instanceof RpcCallError && error.code === ERROR_CODES.LAST_SIGN_IN_METHOD;
  }
}

function Method({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <Typography.Title level={3} id={id} style={{ fontSize: 15, marginTop: 0 }}>
        {title}
      </Typography.Title>
      {children}
    </section>
  );
}

export function SignInMethodsSection({ user }: { user: TUser }) {
  const { t } = useTranslation('profile');
  const [isLastRefused, setIsLastRefused] = useState(false);

  async function onUnbind(unbind: () => Promise<unknown>, success: string) {
    setIsLastRefused(false);
    if (await isRefusedAsLast(unbind)) setIsLastRefused(true);
    else void message.success(success);
  }

  return (
    <ProfileSection title={t('methods.title')}>
      <Flex vertical gap={24}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('methods.intro')}
        </Typography.Paragraph>
        {isLastRefused && (
          <Alert
            type="warning"
            showIcon
            role="alert"
            closable
            onClose={() => setIsLastRefused(false)}
            message={t('methods.lastMethod')}
          />
        )}
        <EmailMethod user={user} />
        <WalletMethod user={user} onUnbind={onUnbind} />
        <ProviderMethods user={user} onUnbind={onUnbind} />
      </Flex>
    </ProfileSection>
  );
}

type TUnbind = (unbind: () => Promise<unknown>, success: string) => Promise<void>;

function EmailMethod({ user }: { user: TUser }) {
  const { t } = useTranslation('profile');

  async function onBound(email: string) {
    await refreshUser().catch(() => undefined);
    void message.success(t('methods.email.bound', { email }));
  }

  return (
    <Method id="method-email" title={t('methods.email.title')}>
      {user.email === null ? (
        <>
          <Typography.Paragraph>{t('methods.email.none')}</Typography.Paragraph>
          <BindEmailForm name="profile-bind-email" onBound={onBound} />
        </>
      ) : user.isNoPassword ? (
        <SetPasswordByMail email={user.email} />
      ) : (
        <Typography.Paragraph style={{ margin: 0 }}>
          {t('methods.email.withPassword', { email: user.email })}
        </Typography.Paragraph>
      )}
    </Method>
  );
}

function WalletMethod({ user, onUnbind }: { user: TUser; onUnbind: TUnbind }) {
  const { t } = useTranslation('profile');
  const address = boundWalletAddress(user.oauth);
  const bindMutation = useBindWallet();
  const unbindMutation = useUnbindWallet();
  const wallet = useWalletFeedback();

  async function onBind() {
    wallet.clear();
    try {
      await bindMutation.mutateAsync();
      void message.success(t('methods.wallet.bound'));
    } catch (error) {
      wallet.report(error); // console API errors have had their popup
    }
  }

  return (
    <Method id="method-wallet" title={t('methods.wallet.title')}>
      {address ? (
        <Flex gap={12} align="center" wrap>
          <Typography.Text code style={{ wordBreak: 'break-all' }}>
            {address}
          </Typography.Text>
          <Popconfirm
            title={t('methods.wallet.unbindTitle')}
            description={t('methods.wallet.unbindDescription', { address })}
            okText={t('methods.unbind')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() =>
              onUnbind(() => unbindMutation.mutateAsync(), t('methods.wallet.unbound'))
            }
          >
            <Button danger aria-label={t('methods.wallet.unbindLabel')}>
              {t('methods.unbind')}
            </Button>
          </Popconfirm>
        </Flex>
      ) : (
        <>
          <Typography.Paragraph>{t('methods.wallet.none')}</Typography.Paragraph>
          <Button loading={bindMutation.isPending} onClick={() => void onBind()}>
            {t('methods.wallet.bind')}
          </Button>
          {wallet.feedback}
        </>
      )}
    </Method>
  );
}

function ProviderMethods({ user, onUnbind }: { user: TUser; onUnbind: TUnbind }) {
  const { t } = useTranslation('profile');
  const configured = useOauthProviders();
  // Until the config is known, a bound provider would show by its id for a moment.
  const isConfigPending = useQuery(getPublicConfigQueryOptions()).isPending;
  const bindMutation = useStartOauthBinding();
  const unbindMutation = useUnbindOauth();
  const bound = user.oauth.filter((entry) => entry.provider !== WALLET_PROVIDER_ID);
  // Configured providers in the operator's order, then any bound one the operator has since removed.
  const providers = [
    ...configured,
    ...bound
      .filter((entry) => !configured.some((provider) => provider.id === entry.provider))
      .map((entry) => ({ id: entry.provider, name: entry.provider })),
  ];
  if (isConfigPending || providers.length === 0) return null;

  return (
    <Method id="method-providers" title={t('methods.providers.title')}>
      <Flex vertical gap={12} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {providers.map((provider) => {
          const binding = bound.find((entry) => entry.provider === provider.id);
          const isConfigured = configured.some((entry) => entry.id === provider.id);
          return (
            <Flex key={provider.id} component="li" gap={12} align="center" wrap>
              <Typography.Text strong style={{ minWidth: 120 }}>
                {provider.name}
              </Typography.Text>
              <Typography.Text type="secondary" style={{ flex: '1 1 160px' }}>
                {binding
                  ? binding.email
                    ? t('methods.providers.boundAs', { email: binding.email })
                    : t('methods.providers.bound')
                  : t('methods.providers.notBound')}
              </Typography.Text>
              {binding ? (
                <Popconfirm
                  title={t('methods.providers.unbindTitle', { provider: provider.name })}
                  description={t('methods.providers.unbindDescription', {
                    provider: provider.name,
                  })}
                  okText={t('methods.unbind')}
                  cancelText={t('common.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={() =>
                    onUnbind(
                      () => unbindMutation.mutateAsync(provider.id),
                      t('methods.providers.unbound', { provider: provider.name }),
                    )
                  }
                >
                  <Button
                    danger
                    aria-label={t('methods.providers.unbindLabel', { provider: provider.name })}
                  >
                    {t('methods.unbind')}
                  </Button>
                </Popconfirm>
              ) : isConfigured ? (
                <Button
                  aria-label={t('methods.providers.bindLabel', { provider: provider.name })}
                  loading={bindMutation.isPending && bindMutation.variables === provider.id}
                  onClick={() => bindMutation.mutate(provider.id)}
                >
                  {t('methods.bind')}
                </Button>
              ) : null}
            </Flex>
          );
        })}
      </Flex>
    </Method>
  );
}
