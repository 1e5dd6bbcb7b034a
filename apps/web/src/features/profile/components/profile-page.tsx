/** /rpc/profile: the signed-in user's account details, preferences, sign-in methods and sessions. */
import { Card, ConfigProvider, Skeleton, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../lib/session';
import { AccountSection } from './account-section';
import { AvatarSection } from './avatar-section';
import { LanguageSection } from './language-section';
import { NicknameSection } from './nickname-section';
import { PasswordSection } from './password-section';
import { RechargeTipsSection } from './recharge-tips-section';
import { SessionsSection } from './sessions-section';
import { SignInMethodsSection } from './sign-in-methods-section';
import { TwoFactorSection } from './two-factor-section';

export function ProfilePage() {
  const { t } = useTranslation('profile');
  const user = useSession((state) => state.user);

  // No space squeezed between two Chinese characters in buttons, so their names stay as written.
  return (
    <ConfigProvider button={{ autoInsertSpace: false }}>
      <div style={{ maxWidth: 880 }}>
        <Typography.Title level={1} style={{ fontSize: 24, marginTop: 0 }}>
          {t('title')}
        </Typography.Title>
        {user === null ? (
          <Space direction="vertical" size="large" style={{ width: '100%' }} aria-busy="true">
            <span role="status" style={{ position: 'absolute', left: -9999 }}>
              {t('loading')}
            </span>
            {[0, 1, 2].map((index) => (
              <Card key={index}>
                <Skeleton active />
              </Card>
            ))}
          </Space>
        ) : (
          <Space direction="vertical" size="large" style={{ width: '100%' }}>
            <AccountSection user={user} />
            <AvatarSection user={user} />
            <NicknameSection user={user} />
            <LanguageSection />
            <SignInMethodsSection user={user} />
            <PasswordSection user={user} />
            <TwoFactorSection />
            <SessionsSection />
            <RechargeTipsSection user={user} />
          </Space>
        )}
      </div>
    </ConfigProvider>
  );
}
