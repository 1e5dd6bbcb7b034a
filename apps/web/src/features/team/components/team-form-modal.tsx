/** The team name and note form, in a modal: creating a team and editing one both use it. */
import { ZTeamNameSchema, ZTeamNoteSchema } from '@rpc/contract';
import { Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export type TTeamFormValues = { teamName: string; note: string };

/** The contract's limits (40 and 200 characters), also as counters under the fields. */
export const TEAM_NAME_MAX = 40;
export const TEAM_NOTE_MAX = 200;

export function TeamFormModal({
  title,
  okText,
  initial,
  onSubmit,
  onClose,
}: {
  title: string;
  okText: string;
  initial?: TTeamFormValues;
  onSubmit: (values: TTeamFormValues) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation('team');
  const [form] = Form.useForm<TTeamFormValues>();
  const [isSaving, setIsSaving] = useState(false);

  const onFinish = async (values: TTeamFormValues) => {
    setIsSaving(true);
    try {
      await onSubmit({ teamName: values.teamName.trim(), note: (values.note ?? '').trim() });
      onClose();
    } catch {
      // the request client has shown why; the form stays open to try again
    } finally {
      setIsSaving(false);
    }
  };

  return (
    <Modal
      open
      title={title}
      okText={okText}
      cancelText={t('actions.cancel')}
      confirmLoading={isSaving}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<TTeamFormValues>
        form={form}
        layout="vertical"
        initialValues={initial ?? { teamName: '', note: '' }}
        onFinish={(values) => void onFinish(values)}
      >
        <Form.Item
          name="teamName"
          label={t('form.name')}
          rules={[
            { required: true, whitespace: true, message: t('form.nameRequired') },
            {
              validator: (_rule, value: string | undefined) =>
                !value || ZTeamNameSchema.safeParse(value).success
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('form.nameInvalid', { max: TEAM_NAME_MAX }))),
            },
          ]}
        >
          <Input maxLength={TEAM_NAME_MAX} showCount autoFocus />
        </Form.Item>
        <Form.Item
          name="note"
          label={t('form.note')}
          extra={t('form.noteHint')}
          rules={[
            {
              validator: (_rule, value: string | undefined) =>
                !value || ZTeamNoteSchema.safeParse(value).success
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('form.noteInvalid', { max: TEAM_NOTE_MAX }))),
            },
          ]}
        >
          <Input.TextArea
            maxLength={TEAM_NOTE_MAX}
            showCount
            autoSize={{ minRows: 2, maxRows: 5 }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
