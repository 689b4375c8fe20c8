/**
 * Text for HTML written by hand (the error pages without JavaScript, the e-mails, the API reference
 * page, the country options): `& < > " '` as entities, so it is safe in text and in quoted
 * attributes. Pure and dependency-free: client components use it too.
 */
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}
