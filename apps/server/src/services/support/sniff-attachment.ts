/**
 * What an attachment really is, told from its bytes (the name and the browser's claimed type are never trusted),
 * and a name safe to store, show and put in a header.
 */
import type { TICKET_ATTACHMENT_TYPES } from '@rpc/contract';

export type TAttachmentType = (typeof TICKET_ATTACHMENT_TYPES)[number];

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);
const PDF = Buffer.from('%PDF-', 'latin1');

/** The attachment's type, or null when it is none of the accepted ones. */
export function sniffAttachmentType(bytes: Buffer): TAttachmentType | null {
  if (bytes.length === 0) return null;
  if (startsWith(bytes, PNG)) return 'image/png';
  if (startsWith(bytes, JPEG)) return 'image/jpeg';
  if (startsWith(bytes, PDF)) return 'application/pdf';
  return isPlainText(bytes) ? 'text/plain' : null;
}

function startsWith(bytes: Buffer, magic: Buffer): boolean {
  return bytes.length >= magic.length && bytes.subarray(0, magic.length).equals(magic);
}

/** Valid UTF-8 without NULs or other control characters than tab, line feed, carriage return and form feed. */
function isPlainText(bytes: Buffer): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  return !/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text);
}

const EXTENSION: Record<TAttachmentType, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'application/pdf': '.pdf',
  'text/plain': '.txt',
};

/**
 * The last path segment of `name` (both slash kinds), letters, digits, '.', '-' and '_' only, no leading dots,
 * at most 80 characters, ending in the extension of the sniffed type: "../../etc/passwd" becomes "passwd.txt".
 */
export function sanitiseAttachmentName(name: string, type: TAttachmentType): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const ext = EXTENSION[type];
  let stem = base
    .normalize('NFKC')
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .replace(/\.{2,}/g, '.')
    .slice(0, 80 - ext.length);
  if (stem === '' || /^_+$/.test(stem)) stem = 'attachment';
  return `${stem}${ext}`;
}
