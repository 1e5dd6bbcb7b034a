/** A mail as text + simple HTML from one set of lines, so every template (account now, notices later) looks alike. */
export type TRenderedMail = {
  subject: string;
  text: string;
  html: string;
  /** the one action link, when the mail has one */
  link?: string;
};

export type TMailContent = {
  subject: string;
  greeting: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  footer: string;
};

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function renderMail(c: TMailContent): TRenderedMail {
  const text = [
    c.greeting,
    '',
    ...c.paragraphs.flatMap((p) => [p, '']),
    ...(c.action ? [`${c.action.label}: ${c.action.url}`, ''] : []),
    c.footer,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5;color:#222">
<p>${escapeHtml(c.greeting)}</p>
${c.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${c.action ? `<p><a href="${escapeHtml(c.action.url)}" style="display:inline-block;padding:10px 18px;background:#1677ff;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(c.action.label)}</a></p>\n<p style="font-size:12px;color:#666">${escapeHtml(c.action.url)}</p>` : ''}
<p style="font-size:12px;color:#666">${escapeHtml(c.footer)}</p>
</body></html>`;
  return { subject: c.subject, text, html, ...(c.action ? { link: c.action.url } : {}) };
}
