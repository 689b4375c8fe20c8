import "server-only";
import { isIP } from "node:net";
import { eq } from "drizzle-orm";
import type { FinancingEnvironment } from "@/lib/config/env";
import type { Db } from "@/lib/db";
import { partners } from "@/lib/db/schema";
import { checkDestinationUrl, checkResolvedAddresses, notificationPolicy } from "@/lib/security/network/addresses";
import { isHostNameOrIpLiteral } from "@/lib/security/network/host-name";
import { makeWaitingNotificationsDue } from "./notifications";

/**
 * A partner's notification URL, set by its staff (the back-office) or by an operator (the operator
 * console): held to the address policy notifications are sent under, here beside the sending.
 */

export const NOTIFICATION_URL_MAX_LENGTH = 2_000;

const HOST_REASON = "the host is not a host name or an IP address";

/** Why a notification URL was refused, as a code the pages put in words (their `urlErrors`). */
export type NotificationUrlProblem = "invalid" | "host" | "https_only" | "scheme" | "credentials" | "metadata" | "address" | "too_long";

/** The address policy's reasons (lib/security/network/addresses.ts) and checkNotificationUrl's, as codes. */
export function notificationUrlProblem(reason: string): NotificationUrlProblem {
  if (reason.startsWith("only https")) return "https_only";
  if (reason.startsWith("only http")) return "scheme";
  if (reason.startsWith("credentials")) return "credentials";
  if (reason.startsWith("cloud metadata")) return "metadata";
  if (reason.startsWith("the destination resolves")) return "address";
  if (reason.startsWith("is longer")) return "too_long";
  if (reason.startsWith(HOST_REASON)) return "host";
  return "invalid";
}

/**
 * A notification URL as staff type it, held to the address policy notifications are sent under:
 * the URL itself (scheme, no credentials, no metadata host, a host name or an IP address with no
 * trailing dot) and, when the host is an address or
 * `localhost`, that address. A host name is resolved (and checked again) at every send. Empty: no
 * notifications.
 */
export function checkNotificationUrl(
  raw: string,
  environment: FinancingEnvironment,
): { ok: true; url: string | null } | { ok: false; reason: string } {
  const typed = raw.trim();
  if (typed === "") return { ok: true, url: null };
  if (typed.length > NOTIFICATION_URL_MAX_LENGTH) return { ok: false, reason: `is longer than ${NOTIFICATION_URL_MAX_LENGTH} characters` };
  const policy = notificationPolicy(environment);
  const checked = checkDestinationUrl(typed, policy);
  if (!checked.ok) return checked;
  const { host, url } = checked.value;
  // A trailing dot (`localhost.`) names the same host to DNS but slips past checks by name; a wildcard or an underscore is no host either.
  if (!isHostNameOrIpLiteral(url.hostname)) return { ok: false, reason: `${HOST_REASON} (no trailing dot)` };
  const literal = isIP(host) !== 0 ? host : host === "localhost" || host.endsWith(".localhost") ? "127.0.0.1" : undefined;
  if (literal !== undefined) {
    const addresses = checkResolvedAddresses([literal], policy);
    if (!addresses.ok) return addresses;
  }
  return { ok: true, url: url.href };
}

export async function setNotificationUrl(
  db: Db,
  partnerId: string,
  raw: string,
  environment: FinancingEnvironment,
): Promise<{ ok: true; url: string | null } | { ok: false; reason: string }> {
  const checked = checkNotificationUrl(raw, environment);
  if (!checked.ok) return checked;
  await db.update(partners).set({ notificationUrl: checked.url }).where(eq(partners.id, partnerId));
  // What waited for a URL (or for a failing one) goes to this one at the next round.
  if (checked.url) await makeWaitingNotificationsDue(db, partnerId);
  return checked;
}
