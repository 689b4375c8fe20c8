import { isHostNameOrIpLiteral } from "@/lib/security/network/host-name";
import { isSafeText } from "@/lib/validation/text";

/**
 * The rules of a partner's settings as an operator types them, pure (the console's actions and their
 * tests use them): its id, its name, the origins its customers may be returned to (and that may
 * frame the checkout), its default return URL, the agencies its staff see. Each answers the value to
 * store, or a reason code the page words in its language.
 */

export type Checked<T, R extends string> = { ok: true; value: T } | { ok: false; reason: R };

/** Lower-case letters, digits and inner hyphens, 3 to 40: it is in URLs and logs. */
const PARTNER_ID = /^[a-z0-9](?:[a-z0-9-]{1,38})[a-z0-9]$/;
export const PARTNER_ID_MAX_LENGTH = 40;
export const PARTNER_NAME_MAX_LENGTH = 100;
export const MAX_ORIGINS = 20;
export const RETURN_URL_MAX_LENGTH = 2_000;
export const MAX_AGENCIES = 50;

export type PartnerIdProblem = "invalid" | "reserved";

/** The id a partner is created with (it never changes). `reserved`: the demo partners' ids. */
export function checkPartnerId(raw: string, reserved: readonly string[]): Checked<string, PartnerIdProblem> {
  const id = raw.trim();
  if (!PARTNER_ID.test(id) || id.includes("--")) return { ok: false, reason: "invalid" };
  if (reserved.includes(id)) return { ok: false, reason: "reserved" };
  return { ok: true, value: id };
}

export function checkPartnerName(raw: string): Checked<string, "missing" | "too_long" | "characters"> {
  const name = raw.trim();
  if (name === "") return { ok: false, reason: "missing" };
  if (name.length > PARTNER_NAME_MAX_LENGTH) return { ok: false, reason: "too_long" };
  if (!isSafeText(name)) return { ok: false, reason: "characters" };
  return { ok: true, value: name };
}

/** `host`: the host is not a host name or an IP literal (a wildcard, a trailing dot, an underscore). */
export type OriginProblem = "invalid" | "host" | "https_only" | "too_many";

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/**
 * One origin per line (blank lines ignored, a trailing `/` forgiven): `scheme://host[:port]`, with no
 * path, query, fragment or credentials, its host a host name or an IP literal (no wildcard: each
 * origin goes into the checkout's `frame-ancestors` as it is). With the production partner API, https only, but for this
 * machine (a local trial). `line` is the 1-based line of the first problem.
 */
export function checkOrigins(
  raw: string,
  environment: "sandbox" | "production",
): { ok: true; value: string[] } | { ok: false; reason: OriginProblem; line?: number } {
  const lines = raw.split(/\r?\n/).map((line) => line.trim());
  const origins: string[] = [];
  for (const [index, line] of lines.entries()) {
    if (line === "") continue;
    let url: URL;
    try {
      url = new URL(line);
    } catch {
      return { ok: false, reason: "invalid", line: index + 1 };
    }
    const web = url.protocol === "http:" || url.protocol === "https:";
    if (web && !isHostNameOrIpLiteral(url.hostname)) return { ok: false, reason: "host", line: index + 1 };
    const originOnly =
      web &&
      url.username === "" &&
      url.password === "" &&
      url.pathname === "/" &&
      url.search === "" &&
      url.hash === "" &&
      [url.origin, `${url.origin}/`].includes(line.toLowerCase());
    if (!originOnly) return { ok: false, reason: "invalid", line: index + 1 };
    if (environment === "production" && url.protocol !== "https:" && !LOOPBACK.test(url.hostname)) {
      return { ok: false, reason: "https_only", line: index + 1 };
    }
    if (!origins.includes(url.origin)) origins.push(url.origin);
  }
  if (origins.length > MAX_ORIGINS) return { ok: false, reason: "too_many" };
  return { ok: true, value: origins };
}

export type ReturnUrlProblem = "invalid" | "not_allowed_origin" | "too_long";

/** Empty: none (the back-office then opens no payment links). Else an absolute URL on one of `origins`. */
export function checkDefaultReturnUrl(raw: string, origins: readonly string[]): Checked<string | null, ReturnUrlProblem> {
  const typed = raw.trim();
  if (typed === "") return { ok: true, value: null };
  if (typed.length > RETURN_URL_MAX_LENGTH) return { ok: false, reason: "too_long" };
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    return { ok: false, reason: "invalid" };
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username !== "" || url.password !== "" || !isSafeText(typed)) {
    return { ok: false, reason: "invalid" };
  }
  if (!origins.includes(url.origin)) return { ok: false, reason: "not_allowed_origin" };
  return { ok: true, value: url.href };
}

/** Agency ids separated by commas, spaces or lines; none is a valid answer (no agency). */
export function checkAgencyIds(raw: string): Checked<number[], "invalid" | "too_many"> {
  const parts = raw
    .split(/[\s,;]+/)
    .map((part) => part.trim())
    .filter((part) => part !== "");
  const ids: number[] = [];
  for (const part of parts) {
    if (!/^[1-9][0-9]{0,9}$/.test(part) || Number(part) > 2_147_483_647) return { ok: false, reason: "invalid" };
    if (!ids.includes(Number(part))) ids.push(Number(part));
  }
  if (ids.length > MAX_AGENCIES) return { ok: false, reason: "too_many" };
  return { ok: true, value: ids.sort((a, b) => a - b) };
}

export type RetentionProblem = "invalid" | "over_ceiling";

/** The default retention period of a partner's customers' data, in days (the column's default). */
export const DEFAULT_RETENTION_DAYS = 90;

/**
 * The retention period of a partner's customers' data as typed: a whole number of days, from 1 to
 * the platform's ceiling (CUSTOMER_DATA_RETENTION_MAX_DAYS). `over_ceiling`: above it.
 */
export function checkRetentionDays(raw: string, maxDays: number): Checked<number, RetentionProblem> {
  const text = raw.trim();
  if (!/^[0-9]{1,6}$/.test(text) || Number(text) < 1) return { ok: false, reason: "invalid" };
  const days = Number(text);
  if (days > maxDays) return { ok: false, reason: "over_ceiling" };
  return { ok: true, value: days };
}
