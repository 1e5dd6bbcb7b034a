import { Descriptions, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TUser } from '../../../lib/session';
import { formatDateTime } from '../../../lib/format-date-time';
import { ProfileSection } from './profile-section';

export function AccountSection({ user }: { user: TUser }) {
  const { t } = useTranslation('profile');
  const isConfirmed = user.mailStatus === 1;
  return (
    <ProfileSection title={t('account.title')}>
      <Descriptions
        column={1}
        items={[
          { key: 'email', label: t('account.email'), children: user.email ?? '-' },
          {
            key: 'id',
            label: t('account.userId'),
            children: <Typography.Text copyable>{user.id}</Typography.Text>,
          },
          {
            key: 'createdAt',
            label: t('account.createdAt'),
            children: formatDateTime(user.createdAt),
          },
          {
            key: 'mailStatus',
            label: t('account.mailStatus'),
            children:
              user.email === null ? (
                '-'
              ) : (
                <Tag color={isConfirmed ? 'success' : 'warning'}>
                  {isConfirmed ? t('account.confirmed') : t('account.notConfirmed')}
                </Tag>
              ),
          },
        ]}
      />
    </ProfileSection>
  );
}
