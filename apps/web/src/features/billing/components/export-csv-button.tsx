/** "Export CSV" for a history table: starts the export with the table's filters, shows progress, then the link. */
import type { TExportKind } from '@rpc/contract';
import { Button, Flex, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  readExportSession,
  startExport,
  useExportStatus,
  writeExportSession,
  type TDepositExportFilters,
  type TPurchaseExportFilters,
} from '../api/export-csv';

type TProps = {
  kind: TExportKind;
  filters: TDepositExportFilters | TPurchaseExportFilters;
};

export function ExportCsvButton({ kind, filters }: TProps) {
  const { t, i18n } = useTranslation('billing');
  const [exportId, setExportId] = useState<string | null>(() => readExportSession(kind));
  const [isStarting, setIsStarting] = useState(false);
  const [isStartFailed, setIsStartFailed] = useState(false);
  const status = useExportStatus(exportId);
  const job = status.data;
  const isPreparing =
    isStarting ||
    (exportId !== null && (!job || job.status === 'queued' || job.status === 'running'));

  const onExport = async () => {
    setIsStarting(true);
    setIsStartFailed(false);
    try {
      const language = i18n.language.startsWith('zh') ? 'zh' : 'en';
      const started = await startExport(kind, { ...filters, language });
      writeExportSession(kind, started.exportId);
      setExportId(started.exportId);
    } catch {
      setIsStartFailed(true);
    } finally {
      setIsStarting(false);
    }
  };

  return (
    <Flex gap={8} align="center" wrap>
      <Button onClick={() => void onExport()} loading={isPreparing} disabled={isPreparing}>
        {t('export.button')}
      </Button>
      {isPreparing && <Typography.Text type="secondary">{t('export.preparing')}</Typography.Text>}
      {job?.status === 'done' && job.downloadUrl && (
        <Typography.Link href={job.downloadUrl} download={job.fileName}>
          {t('export.download', { name: job.fileName, count: job.rows ?? 0 })}
        </Typography.Link>
      )}
      {(job?.status === 'failed' || isStartFailed) && (
        <Typography.Text type="danger">{t('export.failed')}</Typography.Text>
      )}
    </Flex>
  );
}
