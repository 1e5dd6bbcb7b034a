/**
 * Inviting someone to a team: by e-mail address or by the user code they read out to you, with a role that an
 * invitation may grant (the contract's GRANTABLE_ROLES) and that ranks below the inviter's (an admin invites billing
 * and viewers; the owner admins too). The fields are checked with the contract's schemas.
 */
import type { TGrantableRole, TParamsIn, TTeamRole } from '@rpc/contract';
import { GRANTABLE_ROLES, ZEmailSchema, ZUserCodeSchema, roleRank } from '@rpc/contract';
import { Button, Flex, Form, Input, Radio, Select, message } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAddMember } from '../api/add-member';

type TInviteBy = 'email' | 'userCode';
type TInviteValues = { by: TInviteBy; invitee: string; role: TGrantableRole };

/** hub_addMember's params from the form: exactly one of email and userCode, normalised as the contract does. */
export function inviteParams(teamId: string, values: TInviteValues): TParamsIn<'hub_addMember'> {
  const invitee = values.invitee.trim();
  return values.by === 'email'
    ? { teamId, email: invitee.toLowerCase(), role: values.role }
    : { teamId, userCode: invitee.toUpperCase(), role: values.role };
}

export function InviteForm({ teamId, callerRole }: { teamId: string; callerRole: TTeamRole }) {
  const { t } = useTranslation('team');
  const [form] = Form.useForm<TInviteValues>();
  const by = Form.useWatch('by', form) ?? 'email';
  const add = useAddMember();

  const onFinish = async (values: TInviteValues) => {
    try {
      await add.mutateAsync(inviteParams(teamId, values));
      void message.success(t('invite.sent', { invitee: values.invitee.trim() }));
      form.setFieldValue('invitee', '');
    } catch {
      // the request client has shown why (already a member, already invited, unknown code …)
    }
  };

  return (
    <Form<TInviteValues>
      form={form}
      layout="vertical"
      initialValues={{ by: 'email', invitee: '', role: 'viewer' }}
      onFinish={(values) => void onFinish(values)}
      aria-label={t('invite.title')}
    >
      <Form.Item name="by" label={t('invite.by')}>
        <Radio.Group
          optionType="button"
          options={[
            { value: 'email', label: t('invite.byEmail') },
            { value: 'userCode', label: t('invite.byCode') },
          ]}
          onChange={() => form.setFields([{ name: 'invitee', errors: [] }])}
        />
      </Form.Item>
      <Flex gap={12} wrap align="flex-start">
        <Form.Item
          name="invitee"
          label={by === 'email' ? t('invite.email') : t('invite.code')}
          extra={by === 'email' ? t('invite.emailHint') : t('invite.codeHint')}
          style={{ flex: '1 1 240px', minWidth: 0 }}
          rules={[
            {
              required: true,
              whitespace: true,
              message: by === 'email' ? t('invite.emailRequired') : t('invite.codeRequired'),
            },
            {
              validator: (_rule, value: string | undefined) => {
                if (!value?.trim()) return Promise.resolve();
                const schema = by === 'email' ? ZEmailSchema : ZUserCodeSchema;
                return schema.safeParse(value).success
                  ? Promise.resolve()
                  : Promise.reject(
                      new Error(
                        by === 'email' ? t('invite.emailInvalid') : t('invite.codeInvalid'),
                      ),
                    );
              },
            },
          ]}
        >
          <Input
            autoComplete="off"
            inputMode={by === 'email' ? 'email' : 'text'}
            placeholder={by === 'email' ? 'name@example.com' : 'ABCDE12345'}
          />
        </Form.Item>
        <Form.Item name="role" label={t('invite.role')} style={{ flex: '0 1 160px' }}>
          <Select<TGrantableRole>
            options={GRANTABLE_ROLES.filter((role) => roleRank(role) < roleRank(callerRole)).map(
              (role) => ({ value: role, label: t(`roles.${role}`) }),
            )}
            popupMatchSelectWidth={false}
          />
        </Form.Item>
      </Flex>
      <Form.Item extra={t('invite.roleHint')}>
        <Button type="primary" htmlType="submit" loading={add.isPending}>
          {t('invite.submit')}
        </Button>
      </Form.Item>
    </Form>
  );
}
