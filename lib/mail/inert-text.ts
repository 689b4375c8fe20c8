/**
 * Text typed by someone (a trip's name) for an e-mail body, written so that a mail client does not
 * turn it into a link: a zero-width joiner (U+200D, invisible) after every dot, `@` and `:` breaks
 * the `host.tld`, `user@host` and `scheme://` a client's linkifier looks for. What the reader sees
 * is unchanged. Pure.
 */
const JOINER = "\u200D";

export function inertText(text: string): string {
  return text.replace(/[.@:/]/g, (c) => `${c}${JOINER}`);
}

/**
 * An address for the audit log and the page that says where an e-mail went: the first character of
 * the mailbox and the domain (`a***@example.com`), enough to tell two apart, not to write to.
 */
export function maskEmail(address: string): string {
  const trimmed = address.trim().toLowerCase();
  const at = trimmed.lastIndexOf("@");
  if (at <= 0) return "***";
  return `${trimmed[0]}***${trimmed.slice(at)}`;
}
