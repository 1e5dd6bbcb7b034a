import { Form, Switch, Typography, message } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LocalizedLink } from '../../../lib/locale-path';
import type { TUser } from '../../../lib/session';
import { refreshUser } from '../../../lib/session';
import { useSetRechargeTips } from '../api/set-recharge-tips';
import { ProfileSection } from './profile-section';

/** Top-up reminders (hub_setRechargeTips) and the way to the e-mail preferences of notices. */
export function RechargeTipsSection({ user }: { user: TUser }) {
  const { t } = useTranslation('profile');
  const mutation = useSetRechargeTips();
  // Shown until the refreshed user arrives, so the switch does not flick back in between.
  const [pendingValue, setPendingValue] = useState<boolean | null>(null);
  const isOn = pendingValue ?? user.rechargeTips === 1;

  async function onChange(checked: boolean) {
    setPendingValue(checked);
    try {
      await mutation.mutateAsync(checked);
      await refreshUser().catch(() => undefined);
      void message.success(checked ? t('rechargeTips.turnedOn') : t('rechargeTips.turnedOff'));
    } catch {
      // the client has shown the popup; the switch goes back to the stored value
    } finally {
      setPendingValue(null);
    }
  }

  return (
    <ProfileSection title={t('rechargeTips.title')}>
      <Form layout="vertical">
        <Form.Item
          label={t('rechargeTips.label')}
          htmlFor="profile-recharge-tips"
          extra={t('rechargeTips.hint')}
          style={{ marginBottom: 0 }}
        >
          <Switch
            id="profile-recharge-tips"
            checked={isOn}
            loading={mutation.isPending}
            onChange={onChange}
          />
        </Form.Item>
      </Form>
      <Typography.Paragraph style={{ margin: '16px 0 0' }}>
        <LocalizedLink to="/rpc/notifications#email-preferences">
          {t('rechargeTips.emailLink')}
        </LocalizedLink>
      </Typography.Paragraph>
    </ProfileSection>
  );
}
