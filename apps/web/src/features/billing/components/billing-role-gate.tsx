/**
 * Billing pages for a team role without the billing permission (a viewer): the page's heading, a way back and why
 * nothing else is shown, instead of calls the server refuses with 10302. Personal logins always pass.
 */
import { Alert, Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import { useCan } from '../../../lib/acting-account';

export function BillingRoleGate({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation('billing');
  if (useCan('billing')) return children;
  return (
    <section aria-labelledby="page-title">
      <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 16 }}>
        <Typography.Title level={1} id="page-title" style={{ fontSize: 24, margin: 0 }}>
          {title}
        </Typography.Title>
        <LinkButton to="/rpc/billings">{t('links.back')}</LinkButton>
      </Flex>
      <Alert
        type="info"
        showIcon
        message={t('readOnly.title')}
        description={t('readOnly.description')}
      />
    </section>
  );
}
