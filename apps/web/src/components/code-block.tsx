/**
 * Code to read and copy: a labelled <pre><code>, wrapped so it is never wider than its box (the whole text stays
 * readable, and copyable from the button), focusable so a keyboard can scroll it. No highlighting on purpose.
 */
import { Flex, Typography } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import { CopyButton } from './copy-button';

export const CODE_STYLE: CSSProperties = {
  margin: 0,
  padding: 12,
  background: 'rgba(0,0,0,0.04)',
  borderRadius: 6,
  fontSize: 12,
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  maxWidth: '100%',
};

export function CodeBlock({
  code,
  label,
  copyLabel,
  title,
  lang,
}: {
  code: string;
  /** the block's accessible name ("Example request (curl)") */
  label: string;
  /** the copy button's name ("Copy curl example") */
  copyLabel: string;
  /** shown above the block; the label when not given */
  title?: ReactNode;
  /** the natural language of the code's text, when it is not the page's (English JSON on a Chinese page) */
  lang?: string;
}) {
  return (
    <div>
      <Flex justify="space-between" align="center" gap={8} style={{ marginBottom: 4 }}>
        <Typography.Text>{title ?? label}</Typography.Text>
        <CopyButton text={code} label={copyLabel} />
      </Flex>
      <pre role="group" tabIndex={0} aria-label={label} lang={lang} style={CODE_STYLE}>
        <code>{code}</code>
      </pre>
    </div>
  );
}
