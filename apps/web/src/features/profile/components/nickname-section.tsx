import { Button, Form, Input, Space, Typography, message } from 'antd';
import type { FormRule } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ZNicknameSchema } from '@rpc/contract';
import type { TUser } from '../../../lib/session';
import { refreshUser } from '../../../lib/session';
import { useSetUserNickname } from '../api/set-user-nickname';
import { ProfileSection } from './profile-section';

const NICKNAME_MAX_LENGTH = ZNicknameSchema.maxLength ?? 32;

type TNicknameFormValues = { nickname: string };

export function NicknameSection({ user }: { user: TUser }) {
  const { t } = useTranslation('profile');
  const [isEditing, setIsEditing] = useState(false);
  const mutation = useSetUserNickname();

  // The contract's schema decides; the message says which of its rules failed.
  const rules: FormRule[] = [
    {
      validator: async (_, value: unknown) => {
        const text = typeof value === 'string' ? value : '';
        if (ZNicknameSchema.safeParse(text).success) return;
        if (text.trim() === '') throw new Error(t('nickname.required'));
        if (text.trim().length > NICKNAME_MAX_LENGTH) {
          throw new Error(t('nickname.tooLong', { max: NICKNAME_MAX_LENGTH }));
        }
        throw new Error(t('nickname.invalid'));
      },
    },
  ];

  async function onFinish(values: TNicknameFormValues) {
    try {
      await mutation.mutateAsync(ZNicknameSchema.parse(values.nickname));
    } catch {
      return; // the client has shown the popup
    }
    setIsEditing(false);
    void message.success(t('nickname.saved'));
    await refreshUser().catch(() => undefined);
  }

  return (
    <ProfileSection title={t('nickname.title')}>
      {isEditing ? (
        <Form<TNicknameFormValues>
          name="profile-nickname"
          layout="vertical"
          requiredMark={false}
          initialValues={{ nickname: user.nickname }}
          onFinish={onFinish}
          disabled={mutation.isPending}
          style={{ maxWidth: 400 }}
        >
          <Form.Item name="nickname" label={t('nickname.label')} rules={rules}>
            <Input autoFocus autoComplete="nickname" />
          </Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" loading={mutation.isPending}>
              {t('nickname.save')}
            </Button>
            <Button onClick={() => setIsEditing(false)}>{t('common.cancel')}</Button>
          </Space>
        </Form>
      ) : (
        <Space wrap>
          <Typography.Text>
            {user.nickname || (
              <Typography.Text type="secondary">{t('nickname.empty')}</Typography.Text>
            )}
          </Typography.Text>
          <Button onClick={() => setIsEditing(true)}>{t('nickname.edit')}</Button>
        </Space>
      )}
    </ProfileSection>
  );
}
