/*
 * A partner's endpoint verifying our notifications (Standard Webhooks), with the library and by
 * hand. docs/integrators/notifications.md shows this file; lib/checkout/background/notification-verification.test.ts runs both on
 * notifications signed as the app signs them, and shows the two usual mistakes failing.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { Webhook } from "standardwebhooks";
import type { webhooks } from "./checkout-api";

export type CheckoutNotification = webhooks["checkoutSessionNotification"]["post"]["requestBody"]["content"]["application/json"];

/**
 * With `standardwebhooks`. `rawBody`: the body exactly as received (`await request.text()`, or
 * Express's `express.raw()` Buffer), never a parsed-and-re-serialized object: one changed byte (a
 * space, a key order, an escaped "é") and the signature no longer matches. `headers`: a plain object
 * with lowercase names; the library reads `headers["webhook-id"]`, which a Fetch `Headers` does not
 * answer, so turn it into one.
 */
export function verifyNotification(signingSecret: string, rawBody: string, headers: Headers): CheckoutNotification {
  return new Webhook(signingSecret).verify(rawBody, Object.fromEntries(headers)) as CheckoutNotification;
}

const TOLERANCE_SECONDS = 5 * 60;

/** The same check by hand: HMAC-SHA256 over `{id}.{timestamp}.{raw body}` with the decoded secret. */
export function verifyNotificationByHand(signingSecret: string, rawBody: string, headers: Headers, now = new Date()): CheckoutNotification {
  const id = headers.get("webhook-id");
  const timestamp = headers.get("webhook-timestamp");
  const signatures = headers.get("webhook-signature");
  if (!id || !timestamp || !signatures) throw new Error("missing webhook-id, webhook-timestamp or webhook-signature");
  // A replayed notification is refused: the timestamp is part of what is signed.
  if (!/^\d+$/.test(timestamp) || Math.abs(now.getTime() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) {
    throw new Error("timestamp too far from now");
  }
  // The key is the base64 after "whsec_", decoded: not the string itself.
  const key = Buffer.from(signingSecret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${rawBody}`).digest();
  // Several space-separated signatures may come (during a secret's rotation): one must match.
  const valid = signatures.split(" ").some((signature) => {
    const [version, value] = signature.split(",", 2);
    if (version !== "v1" || value === undefined) return false;
    const given = Buffer.from(value, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!valid) throw new Error("no matching signature");
  return JSON.parse(rawBody) as CheckoutNotification;
}
