/**
 * Disbanding a team: what it means (members removed, API keys stop working, invitations lapse, records kept, money
 * left moves to the owner's personal wallet, arrears must be paid first: the server refuses otherwise, 10313, and
 * the client's popup says why), and the team's name typed out before the button works.
 */
import type { TTeam } from '@rpc/contract';
import { Alert, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export function DisbandTeamModal({
  team,
  onConfirm,
  onClose,
}: {
  team: TTeam;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation('team');
  const [typed, setTyped] = useState('');
  const [isWorking, setIsWorking] = useState(false);
  const isMatch = typed.trim() === team.teamName.trim();

  const onOk = async () => {
    if (!isMatch) return;
    setIsWorking(true);
    try {
      await onConfirm();
      onClose();
    } catch {
      // the request client has shown why
    } finally {
      setIsWorking(false);
    }
  };

  return (
    <Modal
      open
      title={t('disband.title', { name: team.teamName })}
      okText={t('disband.ok')}
      cancelText={t('actions.cancel')}
      okButtonProps={{ danger: true, disabled: !isMatch }}
      confirmLoading={isWorking}
      onOk={() => void onOk()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Alert type="warning" showIcon message={t('disband.warning')} style={{ marginBottom: 12 }} />
      <ul style={{ paddingInlineStart: 20 }}>
        <li>{t('disband.members')}</li>
        <li>{t('disband.keys')}</li>
        <li>{t('disband.invites')}</li>
        <li>{t('disband.kept')}</li>
        <li>{t('disband.wallet')}</li>
      </ul>
      <Form layout="vertical" onFinish={() => void onOk()}>
        <Form.Item
          label={
            <span>
              {t('disband.typeName')} <Typography.Text code>{team.teamName}</Typography.Text>
            </span>
          }
          htmlFor="disband-confirm-name"
        >
          <Input
            id="disband-confirm-name"
            aria-label={t('disband.typeNameLabel')}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
            autoFocus
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
