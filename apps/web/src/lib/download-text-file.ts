/** Saves text as a file through a temporary object URL (no server round trip): CSV exports, backup codes. */
export function downloadTextFile(fileName: string, text: string, type = 'text/csv;charset=utf-8') {
  // The byte-order mark makes spreadsheet programs read UTF-8 (Chinese key names) correctly; plain text needs none.
  const parts = type.startsWith('text/csv') ? ['\uFEFF', text] : [text];
  const blob = new Blob(parts, { type });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
