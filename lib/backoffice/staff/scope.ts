/**
 * Where a back-office sign-in may lead back to: a rule that needs no request. (Which agency staff
 * act for is the credential rule, lib/partners/credential.ts.)
 */

/** A path inside the back-office: the only place a sign-in may lead back to (no open redirect). */
export function isAdminPath(value: unknown): value is string {
  if (typeof value !== "string" || value.length > 1000) return false;
  // Printable ASCII only: a browser sends anything else percent-encoded, and a raw CR/LF or a
  // character above U+00FF cannot go into a Location header (the redirect would fail with a 500).
  if (!/^[\x21-\x7e]*$/.test(value)) return false;
  if (!/^\/admin(\/|\?|$)/.test(value) || value.startsWith("/admin/login")) return false;
  try {
    const probe = "http://origin.invalid";
    return new URL(value, probe).origin === probe;
  } catch {
    return false;
  }
}
