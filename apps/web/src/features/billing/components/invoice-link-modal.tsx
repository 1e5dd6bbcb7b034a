/**
 * An invoice's public link: make one (shown once: only its hash is kept), replace it (the old link stops working)
 * or revoke it. The link opens /invoice/{code} without signing in.
 */
import type { TInvoicePublicLink, TInvoiceSummary } from '@rpc/contract';
import { Alert, Button, Flex, Input, Modal, Popconfirm, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button';
import { useSetInvoiceLink } from '../api/set-invoice-link';
import { useBillingFormat } from '../hooks/use-billing-format';

function LinkPanel({ invoice }: { invoice: TInvoiceSummary }) {
  const { t } = useTranslation('invoice');
  const format = useBillingFormat();
  const setLink = useSetInvoiceLink();
  const [fresh, setFresh] = useState<TInvoicePublicLink | null>(null);
  const [isRevoked, setIsRevoked] = useState(false);
  const hasLink = fresh !== null || (!isRevoked && invoice.publicLinkCreatedAt !== null);

  const change = async (revoke: boolean) => {
    try {
      const link = await setLink.mutateAsync({ invoiceId: invoice.id, revoke });
      setFresh(link.code ? link : null);
      setIsRevoked(revoke);
    } catch {
      // shown below: hub_getInvoice* calls have no popup
    }
  };

  return (
    <Flex vertical gap={12}>
      <Typography.Paragraph style={{ margin: 0 }}>{t('link.intro')}</Typography.Paragraph>
      {fresh?.url ? (
        <Flex vertical gap={8}>
          <Alert type="success" showIcon message={t('link.fresh')} />
          <label htmlFor="invoice-public-link">{t('link.url')}</label>
          <Flex gap={8}>
            <Input id="invoice-public-link" value={fresh.url} readOnly />
            <CopyButton text={fresh.url} label={t('link.copy')} />
            <Button href={fresh.url} target="_blank" rel="noopener noreferrer">
              {t('link.open')}
            </Button>
          </Flex>
        </Flex>
      ) : (
        <Typography.Text type="secondary" role="status">
          {isRevoked
            ? t('link.revoked')
            : invoice.publicLinkCreatedAt !== null
              ? t('link.active', { date: format.date(invoice.publicLinkCreatedAt) })
              : t('link.none')}
        </Typography.Text>
      )}
      {setLink.isError ? <Alert type="error" showIcon message={t('link.failed')} /> : null}
      <Flex gap={8} wrap align="center">
        <Button type="primary" loading={setLink.isPending} onClick={() => void change(false)}>
          {hasLink ? t('link.replace') : t('link.create')}
        </Button>
        {hasLink ? (
          <Popconfirm
            title={t('link.revokeConfirm')}
            okText={t('link.revoke')}
            cancelText={t('link.close')}
            onConfirm={() => change(true)}
          >
            <Button danger disabled={setLink.isPending}>
              {t('link.revoke')}
            </Button>
          </Popconfirm>
        ) : null}
        {hasLink ? (
          <Typography.Text type="secondary">{t('link.replaceHint')}</Typography.Text>
        ) : null}
      </Flex>
    </Flex>
  );
}

export function InvoiceLinkModal({
  invoice,
  onClose,
}: {
  invoice: TInvoiceSummary | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('invoice');
  return (
    <Modal
      open={invoice !== null}
      title={invoice ? t('link.title', { number: invoice.number }) : null}
      onCancel={onClose}
      destroyOnHidden
      footer={<Button onClick={onClose}>{t('link.close')}</Button>}
    >
      {invoice ? <LinkPanel key={invoice.id} invoice={invoice} /> : null}
    </Modal>
  );
}
