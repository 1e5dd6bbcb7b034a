/**
 * The spend-limit settings: RU and money caps (empty: none), alert only or stop the keys, and the alert
 * thresholds. Saving 'stop' with a cap this month has already reached is asked first: the keys stop at once.
 */
import type { TSpendLimits } from '@rpc/contract';
import { ZSpendLimitsInputSchema } from '@rpc/contract';
import {
  Button,
  Checkbox,
  Col,
  Flex,
  Form,
  InputNumber,
  Modal,
  Radio,
  Row,
  Typography,
  message,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TSpendLimitsParams } from '../api/set-spend-limits';
import { useSetSpendLimits } from '../api/set-spend-limits';
import { centsToDollars, dollarsToCents, wouldStopNow } from '../utils/spend-limits';

type TFormValues = {
  ruCap: number | null;
  /** dollars as typed (the input's string mode), turned into cents without float arithmetic */
  dollarsCap: string | null;
  action: TSpendLimits['action'];
  alertPercents: number[];
};

const PERCENT_CHOICES = [50, 80, 90, 100];
const MAX_ALERTS = 5;

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '';
}

export function SpendLimitsForm({ limits }: { limits: TSpendLimits }) {
  const { t } = useTranslation('billing');
  const [form] = Form.useForm<TFormValues>();
  const save = useSetSpendLimits();
  const [pending, setPending] = useState<TSpendLimitsParams | null>(null);

  // A threshold saved elsewhere (the API takes any 1–100) stays visible so it is not dropped unseen.
  const percentOptions = useMemo(
    () =>
      [...new Set([...PERCENT_CHOICES, ...limits.alertPercents])]
        .sort((a, b) => a - b)
        .map((percent) => ({ value: percent, label: t('spendLimits.percent', { percent }) })),
    [limits.alertPercents, t],
  );

  const send = async (params: TSpendLimitsParams) => {
    try {
      await save.mutateAsync(params);
      void message.success(t('spendLimits.saved'));
    } catch {
      // the request client has shown why
    }
  };

  const onFinish = (values: TFormValues) => {
    const parsed = ZSpendLimitsInputSchema.safeParse({
      monthlyRuCap: isEmpty(values.ruCap) ? null : values.ruCap,
      monthlyCentsCap: dollarsToCents(values.dollarsCap),
      action: values.action,
      alertPercents: values.alertPercents,
    });
    // The field rules below already hold the schema's bounds; this keeps a slip from reaching the server.
    if (!parsed.success) return;
    if (wouldStopNow(parsed.data, limits.month)) {
      setPending(parsed.data);
      return;
    }
    void send(parsed.data);
  };

  const onConfirmStop = () => {
    const params = pending;
    setPending(null);
    if (params) void send(params);
  };

  return (
    <Flex vertical gap={8}>
      <Typography.Title level={3} className="billing-subtitle">
        {t('spendLimits.formTitle')}
      </Typography.Title>
      <Form<TFormValues>
        form={form}
        name="spend-limits"
        layout="vertical"
        aria-label={t('spendLimits.formTitle')}
        initialValues={{
          ruCap: limits.monthlyRuCap,
          dollarsCap: centsToDollars(limits.monthlyCentsCap),
          action: limits.action,
          alertPercents: limits.alertPercents,
        }}
        onFinish={onFinish}
      >
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              name="ruCap"
              label={t('spendLimits.ruCap')}
              extra={t('spendLimits.ruCapHelp')}
              rules={[
                {
                  validator: (_rule, value: unknown) =>
                    isEmpty(value) || (Number.isSafeInteger(value) && (value as number) >= 1)
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('spendLimits.ruCapInvalid'))),
                },
              ]}
            >
              <InputNumber<number> style={{ width: '100%' }} step={1000} inputMode="numeric" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="dollarsCap"
              label={t('spendLimits.centsCap')}
              extra={t('spendLimits.centsCapHelp')}
              rules={[
                {
                  validator: (_rule, value: unknown) => {
                    const cents = dollarsToCents(value as string | null);
                    return cents === null || (Number.isSafeInteger(cents) && cents >= 1)
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('spendLimits.centsCapInvalid')));
                  },
                },
              ]}
            >
              <InputNumber<string>
                stringMode
                precision={2}
                step="1"
                prefix={t('spendLimits.currency')}
                inputMode="decimal"
                style={{ width: '100%' }}
              />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item label={<span id="spend-action-label">{t('spendLimits.action')}</span>}>
          <div role="radiogroup" aria-labelledby="spend-action-label">
            <Form.Item name="action" noStyle>
              <Radio.Group>
                <Flex vertical gap={8}>
                  <div>
                    <Radio value="alert" aria-describedby="spend-action-alert-help">
                      {t('spendLimits.actionAlert')}
                    </Radio>
                    <Typography.Text
                      id="spend-action-alert-help"
                      type="secondary"
                      className="billing-radio-help"
                    >
                      {t('spendLimits.actionAlertHelp')}
                    </Typography.Text>
                  </div>
                  <div>
                    <Radio value="stop" aria-describedby="spend-action-stop-help">
                      {t('spendLimits.actionStop')}
                    </Radio>
                    <Typography.Text
                      id="spend-action-stop-help"
                      type="secondary"
                      className="billing-radio-help"
                    >
                      {t('spendLimits.actionStopHelp')}
                    </Typography.Text>
                  </div>
                </Flex>
              </Radio.Group>
            </Form.Item>
          </div>
        </Form.Item>
        <Form.Item
          label={<span id="spend-alerts-label">{t('spendLimits.alertPercents')}</span>}
          extra={t('spendLimits.alertPercentsHelp')}
        >
          <div role="group" aria-labelledby="spend-alerts-label">
            <Form.Item
              name="alertPercents"
              noStyle
              rules={[
                {
                  validator: (_rule, value: number[] | undefined) =>
                    (value ?? []).length <= MAX_ALERTS
                      ? Promise.resolve()
                      : Promise.reject(
                          new Error(t('spendLimits.alertPercentsTooMany', { max: MAX_ALERTS })),
                        ),
                },
              ]}
            >
              <Checkbox.Group options={percentOptions} />
            </Form.Item>
          </div>
        </Form.Item>
        <Form.Item style={{ marginBottom: 0 }}>
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('spendLimits.save')}
          </Button>
        </Form.Item>
      </Form>
      {pending ? (
        <Modal
          open
          title={t('spendLimits.confirmStopTitle')}
          okText={t('spendLimits.confirmStopOk')}
          cancelText={t('cancel')}
          okButtonProps={{ danger: true }}
          onOk={onConfirmStop}
          onCancel={() => setPending(null)}
        >
          <Typography.Paragraph>{t('spendLimits.confirmStopDescription')}</Typography.Paragraph>
        </Modal>
      ) : null}
    </Flex>
  );
}
