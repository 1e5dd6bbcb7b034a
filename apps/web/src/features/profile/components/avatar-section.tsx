/**
 * The avatar card: the current image (or the initials), upload of a PNG, JPEG or WebP with progress (checked here
 * first, then by the server from its bytes), and removal after a confirmation. Errors show in the card as the
 * catalogue words them, in the page's language.
 */
import { UploadOutlined } from '@ant-design/icons';
import { ERROR_CODES, SESSION_ERROR_CODES } from '@rpc/contract';
import type { UploadProps } from 'antd';
import {
  Alert,
  Avatar,
  Button,
  Popconfirm,
  Progress,
  Space,
  Typography,
  Upload,
  message,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  RpcCallError,
  describeRpcError,
  isCancelledError,
  isTimeoutError,
  limitMessage,
} from '../../../lib/rpc-client';
import type { TUser } from '../../../lib/session';
import { refreshUser } from '../../../lib/session';
import { useRemoveAvatar } from '../api/remove-avatar';
import { checkAvatarFile, uploadAvatar } from '../api/upload-avatar';
import { initialsOf } from '../utils/initials';
import { ProfileSection } from './profile-section';

/** What the file picker offers; the server still tells the type from the bytes. */
const ACCEPT = 'image/png,image/jpeg,image/webp,.png,.jpg,.jpeg,.webp';
const SIGN_OUT_CODES: readonly number[] = [...SESSION_ERROR_CODES, ERROR_CODES.TWO_FACTOR_PENDING];

/** The words for a failed upload: the catalogue's text, or the throttle's wording with the time left. */
function describeUploadError(error: unknown): string {
  if (error instanceof RpcCallError && error.code === ERROR_CODES.RATE_LIMITED)
    return limitMessage(error.limitType, error.attemptsExpireAt) ?? describeRpcError(error);
  return describeRpcError(error);
}

/** antd's default avatar grey (#bfbfbf) gives white initials 1.83:1; this blue gives about 6:1 (WCAG AA). */
const INITIALS_BG = '#0958d9';

export function AvatarSection({ user }: { user: TUser }) {
  const { t } = useTranslation('profile');
  const [percent, setPercent] = useState<number | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const removal = useRemoveAvatar();
  const isUploading = percent !== null;
  const name = user.nickname || user.email || '';

  function onUploadError(error: unknown) {
    if (isCancelledError(error) && !isTimeoutError(error)) return;
    setFailure(error);
    // The one request client decides what an ended session means (SPEC §8: popup, sign out): asking it for the
    // profile meets the same answer and runs its rules.
    if (error instanceof RpcCallError && SIGN_OUT_CODES.includes(error.code))
      void refreshUser().catch(() => undefined);
  }

  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    const refused = checkAvatarFile(file);
    if (refused) {
      setFailure(refused);
      return Upload.LIST_IGNORE;
    }
    setFailure(null);
    return true;
  };

  const customRequest: UploadProps['customRequest'] = ({
    file,
    onProgress,
    onSuccess,
    onError,
  }) => {
    setPercent(0);
    uploadAvatar(file as Blob, {
      onProgress: (value) => {
        setPercent(value);
        onProgress?.({ percent: value });
      },
    })
      .then(async (result) => {
        onSuccess?.(result);
        void message.success(t('avatar.uploaded'));
        await refreshUser().catch(() => undefined);
      })
      .catch((error: unknown) => {
        onError?.(error instanceof Error ? error : new Error(String(error)));
        onUploadError(error);
      })
      .finally(() => setPercent(null));
  };

  async function onRemove() {
    setFailure(null);
    try {
      await removal.mutateAsync();
    } catch {
      return; // the client has shown the popup
    }
    void message.success(t('avatar.removed'));
    await refreshUser().catch(() => undefined);
  }

  return (
    <ProfileSection title={t('avatar.title')}>
      <Space align="center" size="large" wrap>
        {user.avatar ? (
          <Avatar size={96} src={user.avatar} alt={t('avatar.alt', { name })} />
        ) : (
          <Avatar size={96} aria-hidden style={{ fontSize: 36, backgroundColor: INITIALS_BG }}>
            {initialsOf(name)}
          </Avatar>
        )}
        <Space direction="vertical" style={{ maxWidth: 480 }}>
          {!user.avatar && <Typography.Text>{t('avatar.none')}</Typography.Text>}
          <Space wrap>
            <Upload
              accept={ACCEPT}
              showUploadList={false}
              maxCount={1}
              beforeUpload={beforeUpload}
              customRequest={customRequest}
              disabled={isUploading || removal.isPending}
            >
              <Button icon={<UploadOutlined aria-hidden />} loading={isUploading}>
                {user.avatar ? t('avatar.change') : t('avatar.upload')}
              </Button>
            </Upload>
            {user.avatar && (
              <Popconfirm
                title={t('avatar.removeConfirm')}
                okText={t('avatar.removeOk')}
                cancelText={t('common.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={onRemove}
              >
                <Button danger loading={removal.isPending} disabled={isUploading}>
                  {t('avatar.remove')}
                </Button>
              </Popconfirm>
            )}
          </Space>
          <Typography.Text type="secondary">{t('avatar.hint')}</Typography.Text>
          {isUploading && (
            <Progress percent={percent} size="small" aria-label={t('avatar.progress')} />
          )}
          {failure !== null && (
            <Alert type="error" showIcon role="alert" message={describeUploadError(failure)} />
          )}
        </Space>
      </Space>
    </ProfileSection>
  );
}
