/**
 * The back-office's notification tools against a real local HTTP endpoint: a partner sees and
 * resends only its own notifications; a resend delivers the same webhook-id again; a test
 * notification reports the endpoint's answer or why there was none; after a rotation, notifications
 * carry both signatures (each verifies with standardwebhooks), and only the new one once the day is over.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  newSigningSecret,
  PREVIOUS_SECRET_VALIDITY_MS,
  signingSecretsOf,
  signNotification,
} from "@/lib/checkout/background/notification-send";
import { storedSession, testContext } from "@/lib/checkout/testing/context";
import type { Database } from "@/lib/db";
import { checkoutSessions, partnerNotifications, partners } from "@/lib/db/schema";
import { partnerById } from "@/lib/partners/partners";
import { openPartnerSecret, sealPartnerSecret } from "@/lib/partners/secrets";
import { checkNotificationUrl, setNotificationUrl } from "@/lib/checkout/background/notification-url";
import {
  listPartnerNotifications,
  notificationSettings,
  resendNotification,
  rotateSigningSecret,
  sendTestNotification,
} from "./notifications";
import { startPartnerEndpoint, verifies, type PartnerEndpoint } from "./testing/partner-endpoint";

let database: Database;
let db: Database["db"];
const servers: Server[] = [];

async function endpoint(status = 204): Promise<PartnerEndpoint> {
  const started = await startPartnerEndpoint(status);
  servers.push(started.server);
  return started;
}

/** A port nothing listens on (a server opened and closed). */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/hooks`;
}

let counter = 0;
async function partner(id: string, notificationUrl: string | null, secret: string | null = newSigningSecret()): Promise<void> {
  await db.insert(partners).values({
    id,
    name: id,
    allowedOrigins: ["http://127.0.0.1:3999"],
    notificationUrl,
    signingSecret: secret === null ? null : sealPartnerSecret(id, "signingSecret", secret),
  });
}

/** A stored notification of a new session of this partner. */
async function notification(partnerId: string, overrides: Partial<typeof partnerNotifications.$inferInsert> = {}): Promise<string> {
  counter++;
  const sessionId = `cs_tools_${counter}`;
  await db
    .insert(checkoutSessions)
    .values(storedSession({ id: sessionId, reference: `BK-TOOLS-${counter}`, partnerId, returnUrl: "http://127.0.0.1:3999/" }));
  const id = `msg_tools_${counter}`;
  await db.insert(partnerNotifications).values({
    id,
    sessionId,
    partnerId,
    partnerSeq: counter,
    state: "confirmed",
    payload: { type: "checkout.session.confirmed", timestamp: new Date().toISOString(), data: { id: sessionId } } as never,
    ...overrides,
  });
  return id;
}

async function row(id: string) {
  const [found] = await db.select().from(partnerNotifications).where(eq(partnerNotifications.id, id));
  return found!;
}

const sandbox = { environment: "sandbox" as const };

beforeAll(async () => {
  ({ database } = await testContext("http://127.0.0.1:9/sandbox/v1"));
  db = database.db;
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await database?.close();
});

describe("a partner's notifications", () => {
  let mine: PartnerEndpoint;
  let theirs: PartnerEndpoint;
  beforeEach(async () => {
    mine = await endpoint();
    theirs = await endpoint();
  });

  it("lists only the partner's own, newest first, a page at a time", async () => {
    await partner("p_list_a", mine.url);
    await partner("p_list_b", theirs.url);
    const older = await notification("p_list_a", { createdAt: new Date(Date.now() - 60_000) });
    const newer = await notification("p_list_a");
    const other = await notification("p_list_b");

    const page = await listPartnerNotifications(db, "p_list_a");
    expect(page.items.map((item) => item.id)).toEqual([newer, older]);
    expect(page.more).toBe(false);
    expect(page.items[0]).toMatchObject({ type: "checkout.session.confirmed", bookingReference: expect.stringMatching(/^BK-TOOLS-/) });
    expect((await listPartnerNotifications(db, "p_list_b")).items.map((item) => item.id)).toEqual([other]);

    const first = await listPartnerNotifications(db, "p_list_a", { size: 1 });
    const second = await listPartnerNotifications(db, "p_list_a", { size: 1, page: 2 });
    expect([first.items[0]!.id, first.more, second.items[0]!.id, second.more]).toEqual([newer, true, older, false]);
  });

  it("resends a delivered notification now, with the same webhook-id, and records the attempt", async () => {
    await partner("p_resend", mine.url);
    const id = await notification("p_resend", { deliveredAt: new Date(Date.now() - 3_600_000), attempts: 1 });

    const result = await resendNotification(db, "p_resend", id, sandbox);
    expect(result).toEqual({ ok: true, result: "delivered" });
    expect(mine.received.map((r) => r.headers["webhook-id"])).toEqual([id]);
    const after = await row(id);
    expect(after.attempts).toBe(2);
    expect(after.lastStatusCode).toBe(204);
    expect(after.lastError).toBeNull();
    expect(after.deliveredAt!.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(after.lastAttemptAt).not.toBeNull();
  });

  it("a resend the endpoint refuses stays queued, with the status code and a short error", async () => {
    const failing = await endpoint(500);
    await partner("p_resend_fail", failing.url);
    const id = await notification("p_resend_fail", { deliveredAt: new Date() });

    expect(await resendNotification(db, "p_resend_fail", id, sandbox)).toEqual({ ok: true, result: "failed" });
    const after = await row(id);
    expect([after.deliveredAt, after.lastStatusCode, after.lastError]).toEqual([null, 500, "HTTP 500"]);
    expect(after.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
  });

  it("refuses to resend another partner's notification as not found, and changes nothing of it", async () => {
    await partner("p_own_a", mine.url);
    await partner("p_own_b", theirs.url);
    const delivered = new Date(Date.now() - 3_600_000);
    const id = await notification("p_own_b", { deliveredAt: delivered });
    const before = await row(id);

    expect(await resendNotification(db, "p_own_a", id, sandbox)).toEqual({ ok: false, reason: "not_found" });
    expect(await row(id)).toEqual(before);
    expect([mine.received.length, theirs.received.length]).toEqual([0, 0]);
    expect(await resendNotification(db, "p_own_a", "msg_does_not_exist", sandbox)).toEqual({ ok: false, reason: "not_found" });
  });
});

describe("the test notification", () => {
  it("is signed, of type notification.test, and reports the endpoint's status", async () => {
    const target = await endpoint(200);
    const secret = newSigningSecret();
    await partner("p_test_ok", target.url, secret);
    const { webhookId, outcome } = await sendTestNotification(db, "p_test_ok", sandbox);
    expect(outcome).toEqual({ ok: true, status: 200 });
    expect(target.received).toHaveLength(1);
    const received = target.received[0]!;
    expect(received.headers["webhook-id"]).toBe(webhookId);
    expect(new Webhook(secret).verify(received.body, received.headers as Record<string, string>)).toMatchObject({
      type: "notification.test",
      data: { test: true },
    });
    // Not stored in the outbox: it is not retried.
    expect(await db.select().from(partnerNotifications).where(eq(partnerNotifications.id, webhookId))).toEqual([]);
  });

  it("says why there was no 2xx: an HTTP status, a refused connection, a refused address, nothing configured", async () => {
    const failing = await endpoint(503);
    await partner("p_test_503", failing.url);
    expect((await sendTestNotification(db, "p_test_503", sandbox)).outcome).toMatchObject({ ok: false, failure: "http", status: 503 });

    await partner("p_test_closed", await closedPortUrl());
    expect((await sendTestNotification(db, "p_test_closed", sandbox)).outcome).toMatchObject({
      ok: false,
      failure: "connection_refused",
      status: null,
    });

    const local = await endpoint();
    await partner("p_test_refused", local.url);
    expect((await sendTestNotification(db, "p_test_refused", { environment: "production" })).outcome).toMatchObject({
      ok: false,
      failure: "refused",
    });
    expect(local.received).toHaveLength(0);

    await partner("p_test_none", null);
    expect((await sendTestNotification(db, "p_test_none", sandbox)).outcome).toMatchObject({ ok: false, failure: "not_configured" });
  });
});

describe("the notification URL", () => {
  it("is held to the address policy notifications are sent under", () => {
    expect(checkNotificationUrl("https://partner.example/hooks", "production")).toEqual({ ok: true, url: "https://partner.example/hooks" });
    expect(checkNotificationUrl("  ", "production")).toEqual({ ok: true, url: null });
    expect(checkNotificationUrl("http://127.0.0.1:4000/hooks", "sandbox")).toEqual({ ok: true, url: "http://127.0.0.1:4000/hooks" });
    for (const [url, environment] of [
      ["not a url", "production"],
      ["http://partner.example/hooks", "production"],
      ["ftp://partner.example/hooks", "sandbox"],
      ["https://user:pass@partner.example/hooks", "production"],
      ["https://169.254.169.254/latest", "sandbox"],
      ["https://metadata.google.internal/", "sandbox"],
      ["https://10.0.0.5/hooks", "production"],
      ["https://127.0.0.1/hooks", "production"],
      ["https://localhost/hooks", "production"],
      [`https://partner.example/${"a".repeat(2_001)}`, "production"],
      // A trailing dot names the same host to DNS, and slipped past the host checks.
      ["https://localhost./x", "sandbox"],
      ["https://localhost./x", "production"],
      ["https://example.com./hook", "production"],
      ["https://partner_1.example/hook", "production"],
    ] as const) {
      expect(checkNotificationUrl(url, environment).ok, url).toBe(false);
    }
  });

  it("is saved for the partner only when it passes", async () => {
    await partner("p_url", null);
    expect(await setNotificationUrl(db, "p_url", "http://10.1.2.3/hooks", "production")).toMatchObject({ ok: false });
    expect((await partnerById(db, "p_url"))!.notificationUrl).toBeNull();
    expect(await setNotificationUrl(db, "p_url", "https://partner.example/hooks", "production")).toEqual({
      ok: true,
      url: "https://partner.example/hooks",
    });
    expect((await partnerById(db, "p_url"))!.notificationUrl).toBe("https://partner.example/hooks");
  });
});

describe("rotating the signing secret", () => {
  it("signs with the new and the old secret for 24 hours (both verify), then with the new one only", async () => {
    const target = await endpoint();
    const old = newSigningSecret();
    await partner("p_rotate", target.url, old);
    const rotatedAt = new Date();
    const rotation = await rotateSigningSecret(db, "p_rotate", rotatedAt);
    if (!rotation.ok) throw new Error("rotation failed");
    expect(rotation.secret).toMatch(/^whsec_/);
    expect(rotation.secret).not.toBe(old);
    expect(rotation.previousValidUntil).toEqual(new Date(rotatedAt.getTime() + PREVIOUS_SECRET_VALIDITY_MS));

    // Stored sealed, both.
    const stored = (await partnerById(db, "p_rotate"))!;
    expect(stored.signingSecret).not.toContain(rotation.secret);
    expect(stored.previousSigningSecret).not.toContain(old);
    expect(openPartnerSecret(stored, "previousSigningSecret")).toBe(old);
    expect(notificationSettings(stored, rotatedAt).previousSecretValidUntil).toEqual(rotation.previousValidUntil);

    // A notification sent now, through the real sender: two signatures, each secret verifies it.
    await sendTestNotification(db, "p_rotate", sandbox);
    const during = target.received.at(-1)!;
    expect(String(during.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verifies(rotation.secret, during)).toBe(true);
    expect(verifies(old, during)).toBe(true);
    expect(verifies(newSigningSecret(), during)).toBe(false);

    // A second past the 24 hours: the new secret only (signed at that moment, verified as of then).
    const later = new Date(rotatedAt.getTime() + PREVIOUS_SECRET_VALIDITY_MS + 1_000);
    const secrets = signingSecretsOf(stored, later);
    expect(secrets).toEqual([rotation.secret]);
    const body = JSON.stringify({ type: "notification.test" });
    const headers = signNotification(secrets, "msg_after", later, body);
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(1);
    const at = (secret: string) => {
      const webhook = new Webhook(secret);
      // Webhook.verify judges the timestamp against the clock: check as of `later`.
      const realNow = Date.now;
      Date.now = () => later.getTime();
      try {
        webhook.verify(body, headers);
        return true;
      } catch {
        return false;
      } finally {
        Date.now = realNow;
      }
    };
    expect(at(rotation.secret)).toBe(true);
    expect(at(old)).toBe(false);
    expect(notificationSettings(stored, later).previousSecretValidUntil).toBeNull();
  });

  it("a first secret has no previous one; a second rotation drops the oldest at once", async () => {
    await partner("p_rotate_first", null, null);
    const first = await rotateSigningSecret(db, "p_rotate_first");
    expect(first).toMatchObject({ ok: true, previousValidUntil: null });
    const second = await rotateSigningSecret(db, "p_rotate_first");
    const third = await rotateSigningSecret(db, "p_rotate_first");
    if (!first.ok || !second.ok || !third.ok) throw new Error("rotation failed");
    const stored = (await partnerById(db, "p_rotate_first"))!;
    expect(signingSecretsOf(stored, new Date())).toEqual([third.secret, second.secret]);
    expect(await rotateSigningSecret(db, "p_missing")).toEqual({ ok: false, reason: "not_found" });
  });
});
