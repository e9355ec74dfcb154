/** CSV writing (RFC 4180): a field is quoted when it holds a comma, quote, CR or LF. */

export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A header line and one line per row, columns in the given order. */
export function toCsv<T extends object, K extends keyof T & string>(columns: readonly K[], rows: readonly T[]): string {
  const lines = [columns.join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvField(row[c])).join(','));
  return `${lines.join('\n')}\n`;
}
