/**
 * The name dialog of "Create API key" and "Rename", validated with the contract's ZApiKeyNameSchema.
 * Mounted only while open, so it starts fresh each time.
 */
import { ZApiKeyNameSchema } from '@rpc/contract';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';

type TFormValues = { name: string };

export function ApiKeyNameModal({
  open,
  title,
  okText,
  initialName = '',
  onSubmit,
  onClose,
}: {
  open: boolean;
  title: string;
  okText: string;
  initialName?: string;
  /** resolves when done; a rejection keeps the dialog open (the request client has said why) */
  onSubmit: (name: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation('api-keys');
  const [form] = Form.useForm<TFormValues>();

  const onOk = async () => {
    let values: TFormValues;
    try {
      values = await form.validateFields();
    } catch {
      return; // the form shows what is wrong
    }
    try {
      await onSubmit(ZApiKeyNameSchema.parse(values.name));
      onClose();
    } catch {
      // The request client has shown why (or the call was cancelled): the dialog stays open.
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText={t('actions.cancel')}
      onOk={() => void onOk()}
      onCancel={onClose}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ name: initialName }}
        onFinish={() => void onOk()}
      >
        <Form.Item
          label={t('nameModal.label')}
          name="name"
          rules={[
            {
              validator: (_rule, value: unknown) => {
                const parsed = ZApiKeyNameSchema.safeParse(value ?? '');
                if (parsed.success) return Promise.resolve();
                const text = String(value ?? '').trim();
                return Promise.reject(
                  new Error(
                    text.length === 0
                      ? t('nameModal.required')
                      : text.length > 40
                        ? t('nameModal.tooLong', { max: 40 })
                        : t('nameModal.invalid'),
                  ),
                );
              },
            },
          ]}
        >
          <Input autoFocus maxLength={40} showCount placeholder={t('nameModal.placeholder')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
