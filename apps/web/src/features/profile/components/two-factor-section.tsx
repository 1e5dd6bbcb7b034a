/**
 * "Two-factor sign-in": turn it on with an authenticator app (QR code or the key typed in, then a code to prove
 * it), see the backup codes once, turn it off or renew the backup codes with a current code.
 */
import { ERROR_CODES } from '@rpc/contract';
import { Alert, Button, Flex, Form, Input, Skeleton, Typography, message } from 'antd';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button';
import { useNoPassword } from '../../../components/sign-in/api/bind-email';
import { useTwoFactorPrompt } from '../../../components/two-factor-prompt';
import { downloadTextFile } from '../../../lib/download-text-file';
import { formatDateTime } from '../../../lib/format-date-time';
import { RpcCallError } from '../../../lib/rpc-client';
import { useTwoFactorStatus } from '../api/get-two-factor-status';
import {
  useDisableTwoFactor,
  useEnableTwoFactor,
  useRegenerateBackupCodes,
  useStartTwoFactorSetup,
} from '../api/two-factor-setup';
import { ProfileSection } from './profile-section';

export const BACKUP_CODES_FILE = 'rpc-console-backup-codes.txt';

export function TwoFactorSection() {
  const { t } = useTranslation('profile');
  const status = useTwoFactorStatus();
  const [setup, setSetup] = useState<{ secret: string; otpauthUrl: string } | null>(null);
  // Shown once, right after they are made; gone when the user confirms they are saved.
  const [backupCodes, setBackupCodes] = useState<string[] | null>(null);

  let body;
  if (backupCodes) {
    body = <BackupCodes codes={backupCodes} onDone={() => setBackupCodes(null)} />;
  } else if (setup) {
    body = (
      <SetupForm
        setup={setup}
        onEnabled={(codes) => {
          setSetup(null);
          setBackupCodes(codes);
        }}
        onCancel={() => setSetup(null)}
        onRestart={() => setSetup(null)}
      />
    );
  } else if (status.isLoading) {
    body = (
      <div role="status" aria-label={t('twoFactor.loading')}>
        <Skeleton active paragraph={{ rows: 2 }} />
      </div>
    );
  } else if (!status.data) {
    body = (
      <Alert
        type="error"
        showIcon
        message={t('twoFactor.loadFailed')}
        action={<Button onClick={() => void status.refetch()}>{t('common.retry')}</Button>}
      />
    );
  } else if (status.data.enabled) {
    body = <EnabledStatus status={status.data} onNewCodes={setBackupCodes} />;
  } else {
    body = <DisabledStatus onSetup={setSetup} />;
  }

  return <ProfileSection title={t('twoFactor.title')}>{body}</ProfileSection>;
}

function DisabledStatus({
  onSetup,
}: {
  onSetup: (setup: { secret: string; otpauthUrl: string }) => void;
}) {
  const { t } = useTranslation('profile');
  const start = useStartTwoFactorSetup();
  return (
    <>
      <Typography.Paragraph>{t('twoFactor.off')}</Typography.Paragraph>
      <Button
        type="primary"
        loading={start.isPending}
        onClick={() =>
          start.mutateAsync().then(onSetup, () => undefined /* the client has shown the popup */)
        }
      >
        {t('twoFactor.turnOn')}
      </Button>
    </>
  );
}

type TSetupFormProps = {
  setup: { secret: string; otpauthUrl: string };
  onEnabled: (backupCodes: string[]) => void;
  onCancel: () => void;
  onRestart: () => void;
};

function SetupForm({ setup, onEnabled, onCancel, onRestart }: TSetupFormProps) {
  const { t } = useTranslation('profile');
  const [form] = Form.useForm<{ code: string; password?: string }>();
  const enable = useEnableTwoFactor();
  // Turning it on needs the password of a user who has one (not known yet: asked, the safe side).
  const noPassword = useNoPassword();
  const asksPassword = noPassword.data?.isNoPassword !== true;

  async function onFinish({ code, password }: { code: string; password?: string }) {
    try {
      const { backupCodes } = await enable.mutateAsync({
        code: code.trim(),
        ...(asksPassword && password ? { password } : {}),
      });
      onEnabled(backupCodes);
    } catch (error) {
      if (!(error instanceof RpcCallError)) return;
      if (error.code === ERROR_CODES.TWO_FACTOR_INVALID) {
        form.setFields([{ name: 'code', value: '', errors: [t('twoFactor.wrongCode')] }]);
      } else if (
        error.code === ERROR_CODES.WRONG_PASSWORD ||
        error.code === ERROR_CODES.PASSWORD_REQUIRED
      ) {
        const text =
          error.code === ERROR_CODES.WRONG_PASSWORD
            ? t('password.wrongCurrent')
            : t('twoFactor.setup.passwordRequired');
        form.setFields([{ name: 'password', value: '', errors: [text] }]);
      } else if (error.code === ERROR_CODES.TWO_FACTOR_NOT_SET_UP) {
        onRestart(); // the offered secret expired: start again (the client said why)
      }
    }
  }

  return (
    <Flex vertical gap={16}>
      <Typography.Paragraph style={{ margin: 0 }}>{t('twoFactor.setup.scan')}</Typography.Paragraph>
      <Flex gap={24} wrap align="flex-start">
        <div style={{ background: '#fff', padding: 8, lineHeight: 0 }}>
          <QRCodeSVG
            value={setup.otpauthUrl}
            size={168}
            marginSize={0}
            role="img"
            aria-label={t('twoFactor.setup.qrLabel')}
          />
        </div>
        <Flex vertical gap={8} style={{ flex: '1 1 240px', minWidth: 0 }}>
          <Typography.Text id="two-factor-secret-label">
            {t('twoFactor.setup.manual')}
          </Typography.Text>
          <Typography.Text
            code
            aria-labelledby="two-factor-secret-label"
            style={{ wordBreak: 'break-all' }}
            data-testid="two-factor-secret"
          >
            {setup.secret}
          </Typography.Text>
          <div>
            <CopyButton text={setup.secret} label={t('twoFactor.setup.copySecret')} />
          </div>
        </Flex>
      </Flex>
      <Form
        form={form}
        name="two-factor-enable"
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        disabled={enable.isPending}
        style={{ maxWidth: 320 }}
      >
        <Form.Item
          name="code"
          label={t('twoFactor.setup.code')}
          rules={[
            { required: true, whitespace: true, message: t('twoFactor.setup.codeRequired') },
            { pattern: /^\s*\d{6}\s*$/, message: t('twoFactor.setup.codeRequired') },
          ]}
        >
          <Input autoComplete="one-time-code" inputMode="numeric" maxLength={6} />
        </Form.Item>
        {asksPassword && (
          <Form.Item
            name="password"
            label={t('twoFactor.setup.password')}
            rules={[{ required: true, message: t('twoFactor.setup.passwordRequired') }]}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
        )}
        <Typography.Paragraph type="secondary">
          {asksPassword
            ? t('twoFactor.setup.othersSignedOut')
            : t('twoFactor.setup.othersSignedOutNoPassword')}
        </Typography.Paragraph>
        <Flex gap={8} wrap>
          <Button type="primary" htmlType="submit" loading={enable.isPending}>
            {t('twoFactor.setup.submit')}
          </Button>
          <Button onClick={onCancel}>{t('common.cancel')}</Button>
        </Flex>
      </Form>
    </Flex>
  );
}

type TStatus = { enabled: boolean; enabledAt: number | null; backupCodesLeft: number };

function EnabledStatus({
  status,
  onNewCodes,
}: {
  status: TStatus;
  onNewCodes: (codes: string[]) => void;
}) {
  const { t } = useTranslation('profile');
  const twoFactor = useTwoFactorPrompt();
  const disable = useDisableTwoFactor();
  const regenerate = useRegenerateBackupCodes();

  async function onRegenerate() {
    try {
      const { backupCodes } = await twoFactor.ask({
        title: t('twoFactor.regenerate.title'),
        description: t('twoFactor.regenerate.description'),
        okText: t('twoFactor.regenerate.ok'),
        run: (code) => regenerate.mutateAsync(code),
      });
      onNewCodes(backupCodes);
    } catch {
      // cancelled, or the client has shown the popup
    }
  }

  async function onDisable() {
    try {
      await twoFactor.ask({
        title: t('twoFactor.disable.title'),
        description: t('twoFactor.disable.description'),
        okText: t('twoFactor.disable.ok'),
        isDanger: true,
        run: (code) => disable.mutateAsync(code),
      });
      void message.success(t('twoFactor.disable.done'));
    } catch {
      // cancelled, or the client has shown the popup
    }
  }

  return (
    <>
      <Typography.Paragraph>
        {status.enabledAt === null
          ? t('twoFactor.on')
          : t('twoFactor.onSince', { date: formatDateTime(status.enabledAt) })}{' '}
        {t('twoFactor.backupLeft', { count: status.backupCodesLeft })}
      </Typography.Paragraph>
      {status.backupCodesLeft <= 2 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message={t('twoFactor.fewBackupCodes')}
        />
      )}
      <Flex gap={8} wrap>
        <Button onClick={() => void onRegenerate()}>{t('twoFactor.regenerate.button')}</Button>
        <Button danger onClick={() => void onDisable()}>
          {t('twoFactor.disable.button')}
        </Button>
      </Flex>
      {twoFactor.prompt}
    </>
  );
}

function BackupCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation('profile');
  const text = codes.join('\n');
  return (
    <Flex vertical gap={16}>
      <Alert
        type="warning"
        showIcon
        message={t('twoFactor.backup.title')}
        description={t('twoFactor.backup.description')}
      />
      <ol
        aria-label={t('twoFactor.backup.listLabel')}
        style={{
          columns: 2,
          maxWidth: 320,
          margin: 0,
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
          fontSize: 15,
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <Flex gap={8} wrap>
        <CopyButton text={text} label={t('twoFactor.backup.copy')} />
        <Button
          onClick={() =>
            downloadTextFile(BACKUP_CODES_FILE, `${text}\n`, 'text/plain;charset=utf-8')
          }
        >
          {t('twoFactor.backup.download')}
        </Button>
        <Button type="primary" onClick={onDone}>
          {t('twoFactor.backup.done')}
        </Button>
      </Flex>
    </Flex>
  );
}
