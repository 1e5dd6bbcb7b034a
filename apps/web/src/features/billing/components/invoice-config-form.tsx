/**
 * The billing details invoices are issued with. Each field is checked by the contract's own rule for it
 * (ZInvoiceConfigFieldSchemas), so the form refuses exactly what the server would.
 */
import type { TInvoiceConfig, TInvoiceConfigField } from '@rpc/contract';
import {
  INVOICE_CONFIG_FIELDS,
  INVOICE_CONFIG_LIMITS,
  ZInvoiceConfigFieldSchemas,
  ZInvoiceConfigInputSchema,
} from '@rpc/contract';
import { Button, Col, Form, Input, Row, message } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUpdateInvoiceConfig } from '../api/update-invoice-config';

type TFormValues = Record<TInvoiceConfigField, string>;

/** What the form says when a field's rule fails (length first: it applies to every field). */
const INVALID_KEY: Partial<Record<TInvoiceConfigField, string>> = {
  email: 'config.invalidEmail',
  taxId: 'config.invalidTaxId',
  postalCode: 'config.invalidPostalCode',
};

/** Two fields a row where there is room; the address lines take a row each. */
const WIDE: readonly TInvoiceConfigField[] = ['addressLine1', 'addressLine2'];

export function InvoiceConfigForm({ config }: { config: TInvoiceConfig }) {
  const { t } = useTranslation('invoice');
  const [form] = Form.useForm<TFormValues>();
  const save = useUpdateInvoiceConfig();

  const ruleFor = (field: TInvoiceConfigField) => ({
    validator: (_rule: unknown, value: unknown) => {
      const text = typeof value === 'string' ? value : '';
      if (ZInvoiceConfigFieldSchemas[field].safeParse(text).success) return Promise.resolve();
      const max = INVOICE_CONFIG_LIMITS[field];
      const reason =
        text.trim().length > max
          ? t('config.tooLong', { max })
          : t(INVALID_KEY[field] ?? 'config.invalidText');
      return Promise.reject(new Error(reason));
    },
  });

  const onFinish = async (values: TFormValues) => {
    const parsed = ZInvoiceConfigInputSchema.safeParse(values);
    // The field rules already hold the schema; this keeps a slip from reaching the server.
    if (!parsed.success) return;
    try {
      await save.mutateAsync(parsed.data);
      void message.success(t('config.saved'));
    } catch {
      // the request client has shown why
    }
  };

  return (
    <Form<TFormValues>
      form={form}
      name="invoice-config"
      layout="vertical"
      aria-label={t('config.title')}
      initialValues={Object.fromEntries(INVOICE_CONFIG_FIELDS.map((f) => [f, config[f]]))}
      onFinish={(values) => void onFinish(values)}
    >
      <Row gutter={16}>
        {INVOICE_CONFIG_FIELDS.map((field) => (
          <Col key={field} xs={24} md={WIDE.includes(field) ? 24 : 12}>
            <Form.Item name={field} label={t(`config.${field}`)} rules={[ruleFor(field)]}>
              <Input
                autoComplete={AUTOCOMPLETE[field]}
                type={field === 'email' ? 'email' : 'text'}
                inputMode={field === 'email' ? 'email' : undefined}
              />
            </Form.Item>
          </Col>
        ))}
      </Row>
      <Button type="primary" htmlType="submit" loading={save.isPending}>
        {t('config.save')}
      </Button>
    </Form>
  );
}

/** Browser autofill names (HTML autocomplete tokens) for a billing address. */
const AUTOCOMPLETE: Record<TInvoiceConfigField, string> = {
  name: 'billing name',
  company: 'billing organization',
  addressLine1: 'billing address-line1',
  addressLine2: 'billing address-line2',
  city: 'billing address-level2',
  state: 'billing address-level1',
  postalCode: 'billing postal-code',
  country: 'billing country-name',
  taxId: 'off',
  email: 'billing email',
};
