/**
 * /third-party/login: sign in with a wallet or one of the configured providers (an admin link with from=admin
 * arrives here signed out: the guard has cleared the token).
 */
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { AuthCard } from '../../../components/auth-card';
import { OtherSignInMethods } from '../../../components/sign-in/other-sign-in-methods';
import { useSignInFlow } from '../../../components/sign-in/use-sign-in-flow';
import { LocalizedLink, useLocalizedNavigate } from '../../../lib/locale-path';

export function ThirdPartyLoginPage() {
  const { t } = useTranslation('oauth');
  const navigate = useLocalizedNavigate();
  const flow = useSignInFlow({
    onSignedIn: () => navigate('/rpc/endpoint', { replace: true }),
  });

  return (
    <AuthCard title={t('thirdPartyLogin.title')}>
      {flow.twoFactorStep ?? (
        <>
          {flow.endedNotice}
          <Typography.Paragraph>{t('thirdPartyLogin.description')}</Typography.Paragraph>
          <OtherSignInMethods onResult={flow.finish} hasDivider={false} />
          <Typography.Paragraph style={{ marginTop: 24, marginBottom: 0, textAlign: 'center' }}>
            <LocalizedLink to="/">{t('thirdPartyLogin.withEmail')}</LocalizedLink>
          </Typography.Paragraph>
        </>
      )}
    </AuthCard>
  );
}
