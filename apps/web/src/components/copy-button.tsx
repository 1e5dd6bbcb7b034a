/**
 * A button that copies `text` and says so beside itself (a tooltip on the button for 2 s), not in a page-wide
 * toast (which would cover a drawer's title). Used for API keys, endpoint URLs and deposit addresses.
 */
import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** How long the "copied" tooltip stays. */
export const COPIED_FEEDBACK_MS = 2000;

type TCopyState = 'idle' | 'copied' | 'failed';

/** `label` is the button's accessible name ("Copy address"); `showLabel` false draws the icon only. */
export function CopyButton({
  text,
  label,
  showLabel = true,
}: {
  text: string;
  label: string;
  showLabel?: boolean;
}) {
  const { t } = useTranslation('common');
  const [state, setState] = useState<TCopyState>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), COPIED_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [state]);

  const onCopy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      // no permission, no secure context: the browser refused
      setState('failed');
    }
  };

  const feedback =
    state === 'idle' ? null : (
      <span role="status">{state === 'copied' ? t('copy.success') : t('copy.failure')}</span>
    );
  return (
    <Tooltip
      open={state === 'idle' ? undefined : true}
      title={feedback ?? (showLabel ? null : label)}
      color={state === 'failed' ? 'red' : undefined}
    >
      <Button
        icon={state === 'copied' ? <CheckOutlined aria-hidden /> : <CopyOutlined aria-hidden />}
        aria-label={label}
        onClick={() => void onCopy()}
      >
        {showLabel ? label : null}
      </Button>
    </Tooltip>
  );
}
