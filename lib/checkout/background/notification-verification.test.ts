import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { verifyNotification, verifyNotificationByHand } from "@/examples/verify-notification";
import type { CheckoutSessionRow } from "@/lib/db/schema";
import { newSigningSecret, signNotification } from "./notification-send";
import { notificationPayload } from "../session/session-state";

/*
 * The integrators' verification of a notification (docs/integrators/notifications.md) (examples/verify-notification.ts), with the library
 * and by hand, on notifications signed and serialized exactly as the app sends them.
 */

const secret = newSigningSecret();
const payload = notificationPayload({
  id: "cs_1",
  bookingReference: "BK-ÉTÉ-1",
  operationId: "op_1",
  operationStatus: "CONFIRMED",
  operationUpdatedAt: new Date(),
} as CheckoutSessionRow);
// As notifications.ts sends it.
const rawBody = JSON.stringify(payload);

function signed(body = rawBody, at = new Date(), key = secret): Headers {
  return new Headers({ "Content-Type": "application/json", ...signNotification(key, "msg_1", at, body) });
}

const verifiers = { library: verifyNotification, "by hand": verifyNotificationByHand };

describe.each(Object.entries(verifiers))("verifying a notification (%s)", (_, verify) => {
  it("accepts what the app sends and gives back its payload", () => {
    expect(verify(secret, rawBody, signed())).toEqual(payload);
  });

  it("refuses another secret, a changed body, a stale timestamp", () => {
    expect(() => verify(newSigningSecret(), rawBody, signed())).toThrow();
    expect(() => verify(secret, rawBody.replace("confirmed", "refused"), signed())).toThrow();
    expect(() => verify(secret, rawBody, signed(rawBody, new Date(Date.now() - 10 * 60_000)))).toThrow();
  });

  it("accepts a notification signed during a rotation (two signatures) with the old or the new secret", () => {
    const next = newSigningSecret();
    const at = new Date();
    const headers = new Headers({ "Content-Type": "application/json", ...signNotification([next, secret], "msg_1", at, rawBody) });
    expect(headers.get("webhook-signature")!.split(" ")).toHaveLength(2);
    expect(verify(next, rawBody, headers)).toEqual(payload);
    expect(verify(secret, rawBody, headers)).toEqual(payload);
    expect(() => verify(newSigningSecret(), rawBody, headers)).toThrow();
  });

  it("refuses a body that was parsed and serialized again (the raw-body pitfall)", () => {
    const reserialized = JSON.stringify(JSON.parse(rawBody), null, 2);
    expect(() => verify(secret, reserialized, signed())).toThrow();
  });
});

describe("the header-object pitfall", () => {
  it("the library given a Fetch Headers instead of a plain object finds no headers", () => {
    const headers = signed();
    expect(() => new Webhook(secret).verify(rawBody, headers as unknown as Record<string, string>)).toThrow(/header/i);
    expect(new Webhook(secret).verify(rawBody, Object.fromEntries(headers))).toEqual(payload);
  });

  it("by hand, one of several space-separated signatures is enough (a secret being rotated)", () => {
    const headers = signed();
    const other = signNotification(newSigningSecret(), "msg_1", new Date(), rawBody)["webhook-signature"]!;
    headers.set("webhook-signature", `${other} ${headers.get("webhook-signature")}`);
    expect(verifyNotificationByHand(secret, rawBody, headers)).toEqual(payload);
    headers.set("webhook-signature", other);
    expect(() => verifyNotificationByHand(secret, rawBody, headers)).toThrow();
  });
});
