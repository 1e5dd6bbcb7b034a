/** "Your user code": what the user reads out to a team's admin to be invited without an e-mail address. */
import { Alert, Button, Card, Flex, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button';
import { useUserCode } from '../api/get-user-code';

export function UserCodeCard() {
  const { t } = useTranslation('team');
  const code = useUserCode();
  return (
    <Card
      size="small"
      title={
        <h2 id="user-code-title" style={{ margin: 0, fontSize: 16 }}>
          {t('userCode.title')}
        </h2>
      }
      role="region"
      aria-labelledby="user-code-title"
    >
      <Typography.Paragraph type="secondary">{t('userCode.description')}</Typography.Paragraph>
      {code.isLoading ? (
        <div role="status" aria-label={t('loading')}>
          <Skeleton.Input active />
        </div>
      ) : code.data ? (
        <Flex gap={12} align="center" wrap>
          <Typography.Text
            code
            style={{ fontSize: 18, letterSpacing: 2 }}
            aria-label={t('userCode.title')}
          >
            {code.data.userCode}
          </Typography.Text>
          <CopyButton text={code.data.userCode} label={t('userCode.copy')} />
        </Flex>
      ) : (
        <Alert
          type="error"
          showIcon
          message={t('userCode.loadFailed')}
          action={<Button onClick={() => void code.refetch()}>{t('actions.retry')}</Button>}
        />
      )}
    </Card>
  );
}
