/**
 * CSV for spreadsheets (RFC 4180): every value quoted, quotes doubled, CRLF line ends, and a
 * byte-order mark so Excel reads UTF-8 (names with accents). A cell that a spreadsheet would run as
 * a formula (starting with = + - @, or a tab or carriage return that hides one) gets a leading
 * single quote: OWASP's advice against CSV injection.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

export function toCsv(header: readonly string[], rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  const lines = [header, ...rows].map((row) => row.map(csvCell).join(","));
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}
