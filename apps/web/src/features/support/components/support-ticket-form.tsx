/**
 * The ticket form: category, subject, message, optionally the API key it is about and one file. The bounds come
 * from the contract's schema; the file is checked for size and type here and again, by its bytes, on the server.
 */
import {
  TICKET_ATTACHMENT_ACCEPT,
  TICKET_ATTACHMENT_MAX_BYTES,
  TICKET_BODY_MAX,
  TICKET_CATEGORIES,
  TICKET_SUBJECT_MAX,
  ZSupportTicketFieldsSchema,
  type TSupportTicketCreated,
  type TTicketCategory,
} from '@rpc/contract';
import { Alert, Button, Form, Input, Result, Select, Typography } from 'antd';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeRpcError } from '../../../lib/rpc-client';
import { trackEvent } from '../../../lib/tracking';
import { useCreateSupportTicket } from '../api/create-support-ticket';
import { useTicketApiKeys } from '../api/get-ticket-api-keys';

type TFormValues = {
  category?: TTicketCategory;
  subject?: string;
  body?: string;
  apiKeyId?: string;
};

const SHAPE = ZSupportTicketFieldsSchema.shape;
const FILE_TYPES = /\.(png|jpe?g|pdf|txt|log)$/i;

/** Why a picked file cannot go, or null. Extension and size only: the server decides by the bytes. */
export function attachmentProblem(file: File): 'fileTooLarge' | 'fileType' | null {
  if (file.size > TICKET_ATTACHMENT_MAX_BYTES) return 'fileTooLarge';
  if (!FILE_TYPES.test(file.name)) return 'fileType';
  return null;
}

export function SupportTicketForm({ isOpen }: { isOpen: boolean }) {
  const { t } = useTranslation('support');
  const [form] = Form.useForm<TFormValues>();
  const create = useCreateSupportTicket();
  const keys = useTicketApiKeys(isOpen);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [created, setCreated] = useState<TSupportTicketCreated | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const fileId = useId();
  const fileHintId = useId();

  if (created) {
    return (
      <Result
        status="success"
        title={t('success.title', { number: created.number })}
        subTitle={t('success.body')}
        extra={
          <Button
            onClick={() => {
              setCreated(null);
              create.reset();
            }}
          >
            {t('success.another')}
          </Button>
        }
      />
    );
  }

  const onFinish = (values: TFormValues) => {
    if (fileError) return;
    const input = {
      category: values.category!,
      subject: values.subject ?? '',
      body: values.body ?? '',
      ...(values.apiKeyId ? { apiKeyId: values.apiKeyId } : {}),
      attachment: file,
    };
    create.mutate(input, {
      onSuccess: (answer) => {
        trackEvent('support.submit');
        form.resetFields();
        setFile(null);
        if (fileInput.current) fileInput.current.value = '';
        setCreated(answer);
      },
    });
  };

  return (
    <Form<TFormValues>
      form={form}
      layout="vertical"
      requiredMark="optional"
      onFinish={onFinish}
      initialValues={{ category: 'technical' }}
      disabled={create.isPending}
    >
      <Form.Item name="category" label={t('form.category')} rules={[{ required: true }]}>
        <Select<TTicketCategory>
          options={TICKET_CATEGORIES.map((c) => ({ value: c, label: t(`categories.${c}`) }))}
        />
      </Form.Item>
      <Form.Item
        name="subject"
        label={t('form.subject')}
        rules={[
          { required: true, whitespace: true, message: t('errors.subjectRequired') },
          {
            validator: (_, value?: string) =>
              !value || SHAPE.subject.safeParse(value).success
                ? Promise.resolve()
                : Promise.reject(new Error(t('errors.subjectInvalid'))),
          },
        ]}
      >
        <Input maxLength={TICKET_SUBJECT_MAX} showCount autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="body"
        label={t('form.body')}
        rules={[
          { required: true, whitespace: true, message: t('errors.bodyRequired') },
          {
            validator: (_, value?: string) =>
              !value || SHAPE.body.safeParse(value).success
                ? Promise.resolve()
                : Promise.reject(new Error(t('errors.bodyInvalid'))),
          },
        ]}
      >
        <Input.TextArea rows={6} maxLength={TICKET_BODY_MAX} showCount />
      </Form.Item>
      <Form.Item name="apiKeyId" label={t('form.apiKey')}>
        <Select<string>
          allowClear
          placeholder={t('form.apiKeyNone')}
          loading={keys.isLoading}
          options={(keys.data?.list ?? []).map((k) => ({ value: k.keyId, label: k.name }))}
        />
      </Form.Item>
      <Form.Item
        label={t('form.attachment')}
        htmlFor={fileId}
        validateStatus={fileError ? 'error' : ''}
        help={fileError ?? <span id={fileHintId}>{t('form.attachmentHint')}</span>}
      >
        <input
          id={fileId}
          ref={fileInput}
          type="file"
          accept={TICKET_ATTACHMENT_ACCEPT}
          aria-describedby={fileHintId}
          aria-invalid={fileError ? true : undefined}
          onChange={(event) => {
            const picked = event.target.files?.[0] ?? null;
            const problem = picked ? attachmentProblem(picked) : null;
            setFileError(problem ? t(`errors.${problem}`) : null);
            setFile(problem ? null : picked);
          }}
        />
      </Form.Item>
      {create.isError && (
        <Alert
          type="error"
          showIcon
          role="alert"
          style={{ marginBottom: 16 }}
          message={t('errors.sendFailed')}
          description={describeRpcError(create.error)}
        />
      )}
      <Button type="primary" htmlType="submit" loading={create.isPending}>
        {t('form.submit')}
      </Button>
      <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0 }}>
        {t('form.privacy')}
      </Typography.Paragraph>
    </Form>
  );
}
