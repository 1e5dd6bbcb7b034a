/**
 * The account's discount code: what is attached (percent off, which SKUs, expiry, used or not) and a field to
 * attach another. The code is checked with the contract's own schema before the server is asked.
 */
import { ZDiscountCodeSchema } from '@rpc/contract';
import { Button, Flex, Form, Input, Tag, Typography, message } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDiscountCode } from '../api/get-discount-code';
import { useSetDiscountCode } from '../api/set-discount-code';
import { useBillingFormat } from '../hooks/use-billing-format';

export function DiscountCodeForm() {
  const { t } = useTranslation('billing');
  const format = useBillingFormat();
  const detail = useDiscountCode();
  const setCode = useSetDiscountCode();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);

  const onApply = async () => {
    const parsed = ZDiscountCodeSchema.safeParse(value);
    if (!parsed.success) {
      setError(t('discount.invalidFormat'));
      return;
    }
    setError(null);
    try {
      const saved = await setCode.mutateAsync(parsed.data);
      setValue('');
      void message.success(t('discount.applied', { code: saved.code, percent: saved.percentOff }));
    } catch {
      // the request client has shown why (10704 invalid or expired, 10705 used)
    }
  };

  const current = detail.data;
  return (
    <Flex vertical gap={8}>
      <Typography.Title level={3} className="billing-subtitle">
        {t('discount.title')}
      </Typography.Title>
      {current ? (
        <Typography.Text>
          {t('discount.current', { code: current.code, percent: current.percentOff })}{' '}
          {current.usedAt !== null ? (
            <Tag>{t('discount.used', { date: format.date(current.usedAt) })}</Tag>
          ) : (
            <Tag color="green">{t('discount.unused')}</Tag>
          )}{' '}
          {current.skuIds.length > 0
            ? t('discount.someSkus', { count: current.skuIds.length })
            : t('discount.allSkus')}
          {current.expiresAt !== null
            ? ` ${t('discount.expires', { date: format.date(current.expiresAt) })}`
            : ''}
        </Typography.Text>
      ) : detail.isSuccess ? (
        <Typography.Text type="secondary">{t('discount.none')}</Typography.Text>
      ) : null}
      <Form
        layout="inline"
        onFinish={() => void onApply()}
        style={{ rowGap: 8 }}
        aria-label={t('discount.title')}
      >
        <Form.Item
          label={t('discount.label')}
          htmlFor="discount-code"
          validateStatus={error ? 'error' : undefined}
          help={error ?? undefined}
        >
          <Input
            id="discount-code"
            value={value}
            autoComplete="off"
            maxLength={32}
            onChange={(e) => setValue(e.target.value)}
            style={{ maxWidth: 220 }}
          />
        </Form.Item>
        <Form.Item>
          <Button htmlType="submit" loading={setCode.isPending} disabled={!value.trim()}>
            {t('discount.apply')}
          </Button>
        </Form.Item>
      </Form>
    </Flex>
  );
}
