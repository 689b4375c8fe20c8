import "server-only";
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import type { PartnerRow } from "@/lib/db/schema";
import { openPartnerSecret } from "@/lib/partners/secrets";
import { getEnv } from "@/lib/config/env";
import { withTraceHeaders } from "@/lib/tracing/spans";
import type { DestinationPolicy } from "@/lib/security/network/addresses";
import { DestinationRefused, postToCheckedDestination, type Resolve } from "@/lib/security/network/outbound";

/**
 * One partner notification signed and sent: a POST in the Standard Webhooks format (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature`), signed with the partner's secrets. The partner's URL is
 * held to the address policy (lib/security/network/addresses.ts: https and public addresses in
 * production, loopback too on the sandbox, and the private hosts the operator lists), checked on the
 * addresses it resolves to, and the connection is pinned to them; its certificate is checked against
 * the public CAs and the operator's private one (NOTIFICATION_CA_FILE). The outbox's delivery, its
 * retries and its order are notifications.ts's.
 */

/** Who is calling, for the partner's logs and firewall rules: the same on every notification. */
export const NOTIFICATION_USER_AGENT = "travel-financing-checkout-notifications/1";
/** Short: a partner's endpoint that hangs holds back its own next notification, no one else's. */
const TIMEOUT_MS = 5_000;

/** A new signing secret for a partner, in the format Standard Webhooks libraries take. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** How long the secret before a rotation still signs: a day to put the new one in place. */
export const PREVIOUS_SECRET_VALIDITY_MS = 24 * 3_600_000;

export type SigningPartner = Pick<PartnerRow, "id" | "signingSecret" | "previousSigningSecret" | "previousSigningSecretExpiresAt">;

/**
 * The secrets a partner's notifications are signed with at `now`: the current one, then the one
 * before the last rotation until it expires. Empty: the partner has no secret (nothing is sent).
 */
export function signingSecretsOf(partner: SigningPartner, now: Date): string[] {
  const current = openPartnerSecret(partner, "signingSecret");
  if (current === null) return [];
  const previousValid = partner.previousSigningSecretExpiresAt !== null && partner.previousSigningSecretExpiresAt > now;
  const previous = previousValid ? openPartnerSecret(partner, "previousSigningSecret") : null;
  return previous === null || previous === current ? [current] : [current, previous];
}

/**
 * The Standard Webhooks headers, with one `v1,…` signature per secret, space-separated: a verifier
 * holding any one of the secrets accepts it (standardwebhooks' Webhook.verify tries each).
 */
export function signNotification(secrets: string | readonly string[], id: string, timestamp: Date, body: string): Record<string, string> {
  const keys = typeof secrets === "string" ? [secrets] : secrets;
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
    "webhook-signature": keys.map((key) => new Webhook(key).sign(id, timestamp, body)).join(" "),
  };
}

/** Why an attempt failed, by kind: what the back-office shows and the outbox keeps (no answer body). */
export type SendFailure = "not_configured" | "refused" | "timeout" | "connection_refused" | "network" | "http";

/** One attempt's result: the answer's status when there was one. */
export type SendOutcome = { ok: true; status: number } | { ok: false; failure: SendFailure; status: number | null; error: string };

export interface SendOptions {
  policy: DestinationPolicy;
  /** CAs trusted beside the public ones; by default the configuration's (NOTIFICATION_CA_FILE). */
  caCertificates?: readonly string[] | undefined;
  resolve?: Resolve;
  /** The `webhook-timestamp` and the moment the previous secret's expiry is judged at. */
  now?: Date;
}

/**
 * One signed POST of `body` to the partner's notification URL, under the address policy; never
 * throws for the destination's behaviour. The error is short and says the kind (the partner's answer
 * is dropped; a refusal names the policy's reason, about the URL, never about a person).
 */
export async function sendSigned(
  partner: SigningPartner & Pick<PartnerRow, "notificationUrl">,
  id: string,
  body: string,
  options: SendOptions,
): Promise<SendOutcome> {
  const now = options.now ?? new Date();
  const secrets = signingSecretsOf(partner, now);
  if (!partner.notificationUrl || secrets.length === 0) {
    return { ok: false, failure: "not_configured", status: null, error: "no notification URL or signing secret" };
  }
  try {
    const response = await postToCheckedDestination(partner.notificationUrl, {
      // With tracing on, the `traceparent` of this delivery: the partner's backend may continue the trace.
      headers: withTraceHeaders({
        "Content-Type": "application/json",
        "User-Agent": NOTIFICATION_USER_AGENT,
        ...signNotification(secrets, id, now, body),
      }),
      body,
      timeoutMs: TIMEOUT_MS,
      policy: options.policy,
      caCertificates: options.caCertificates ?? getEnv().notifications.caCertificates,
      resolve: options.resolve,
    });
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status };
    return { ok: false, failure: "http", status: response.status, error: `HTTP ${response.status}` };
  } catch (error) {
    if (error instanceof DestinationRefused) return { ok: false, failure: "refused", status: null, error: error.message };
    const code = (error as NodeJS.ErrnoException).code;
    if (error instanceof Error && error.message.startsWith("no answer within")) {
      return { ok: false, failure: "timeout", status: null, error: `timeout: no answer within ${TIMEOUT_MS / 1000} s` };
    }
    if (code === "ECONNREFUSED") return { ok: false, failure: "connection_refused", status: null, error: "connection refused" };
    return { ok: false, failure: "network", status: null, error: `network error${code ? ` (${code})` : ""}` };
  }
}
