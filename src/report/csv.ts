/** CSV writing (RFC 4180): a field is quoted when it holds a comma, quote, CR or LF. */

export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A header line and one line per row, columns in the given order; `cell` reads a column of a row (default: the
 * row's property), so that a column can be computed per row without a copy of every row.
 */
export function toCsv<T extends object, K extends string>(
  columns: readonly K[],
  rows: readonly T[],
  cell: (row: T, column: K) => unknown = (row, column) => (row as Record<string, unknown>)[column],
): string {
  const lines = [columns.join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvField(cell(row, c))).join(','));
  return `${lines.join('\n')}\n`;
}
