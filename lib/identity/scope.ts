import type { StaffRole } from "@/lib/vocabulary/staff";

/**
 * Where a back-office sign-in may lead back to: a rule that needs no request. (Which agency staff
 * act for is the credential rule, lib/partners/credential.ts.) One sign-in serves two areas: a
 * partner's staff land in the back-office (`/admin`), the platform's operators in their console
 * (`/operator`); neither is led into the other's.
 */

export const ADMIN_HOME = "/admin";
export const OPERATOR_HOME = "/operator";

/** A path inside the back-office: the only place a sign-in may lead back to (no open redirect). */
export function isAdminPath(value: unknown): value is string {
  return isPathUnder(value, ADMIN_HOME) && !value.startsWith("/admin/login");
}

/** A path inside the operator's console. */
export function isOperatorPath(value: unknown): value is string {
  return isPathUnder(value, OPERATOR_HOME);
}

/** Where a sign-in may be asked to lead back to, before anyone knows who signs in. */
export function isReturnPath(value: unknown): value is string {
  return isAdminPath(value) || isOperatorPath(value);
}

/** The area someone of this role works in. */
export function homeFor(role: StaffRole): string {
  return role === "operator" ? OPERATOR_HOME : ADMIN_HOME;
}

/** Where a completed sign-in leads: the path asked for when it is in the person's own area, else its home. */
export function landingPath(role: StaffRole, next: unknown): string {
  const own = role === "operator" ? isOperatorPath(next) : isAdminPath(next);
  return own ? (next as string) : homeFor(role);
}

function isPathUnder(value: unknown, area: string): value is string {
  if (typeof value !== "string" || value.length > 1000) return false;
  // Printable ASCII only: a browser sends anything else percent-encoded, and a raw CR/LF or a
  // character above U+00FF cannot go into a Location header (the redirect would fail with a 500).
  if (!/^[\x21-\x7e]*$/.test(value)) return false;
  if (!value.startsWith(area) || !/^(\/|\?|$)/.test(value.slice(area.length))) return false;
  try {
    const probe = "http://origin.invalid";
    return new URL(value, probe).origin === probe;
  } catch {
    return false;
  }
}
