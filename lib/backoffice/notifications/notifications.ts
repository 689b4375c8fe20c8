import "server-only";
import { randomBytes } from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { NotificationTestPayload } from "@/lib/checkout/api/api-schemas";
import { newSigningSecret, PREVIOUS_SECRET_VALIDITY_MS, sendSigned, type SendOutcome } from "@/lib/checkout/background/notification-send";
import { deliverNotificationNow, type DeliveryOptions, type DeliveryResult } from "@/lib/checkout/background/notifications";
import type { Db } from "@/lib/db";
import { checkoutSessions, partnerNotifications, partners, type PartnerRow } from "@/lib/db/schema";
import type { FinancingEnvironment } from "@/lib/config/env";
import { openPartnerSecret, sealPartnerSecret } from "@/lib/partners/secrets";
import { notificationPolicy } from "@/lib/security/network/addresses";
import type { Resolve } from "@/lib/security/network/outbound";

/**
 * The back-office's notification tools (app/admin/notifications): a partner's own notifications,
 * sending one again, a test notification, the notification URL and the signing secret's rotation.
 * Every function takes the staff member's partner id and touches that partner's rows only: another
 * partner's notification is "not found", never "not yours".
 */

export interface NotificationListItem {
  id: string;
  state: string;
  type: string;
  sessionId: string;
  bookingReference: string | null;
  operationId: string | null;
  createdAt: Date;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date;
  deliveredAt: Date | null;
}

export const NOTIFICATIONS_PAGE_SIZE = 50;

/** The partner's notifications, newest first, a page at a time (`page` from 1); `more` says another page follows. */
export async function listPartnerNotifications(
  db: Db,
  partnerId: string,
  { page = 1, size = NOTIFICATIONS_PAGE_SIZE }: { page?: number; size?: number } = {},
): Promise<{ items: NotificationListItem[]; more: boolean }> {
  const rows = await db
    .select({
      id: partnerNotifications.id,
      state: partnerNotifications.state,
      payload: partnerNotifications.payload,
      sessionId: partnerNotifications.sessionId,
      bookingReference: checkoutSessions.bookingReference,
      operationId: checkoutSessions.operationId,
      createdAt: partnerNotifications.createdAt,
      attempts: partnerNotifications.attempts,
      lastStatusCode: partnerNotifications.lastStatusCode,
      lastError: partnerNotifications.lastError,
      lastAttemptAt: partnerNotifications.lastAttemptAt,
      nextAttemptAt: partnerNotifications.nextAttemptAt,
      deliveredAt: partnerNotifications.deliveredAt,
    })
    .from(partnerNotifications)
    // The session's partner too: a notification is listed only with a session of the same partner.
    .leftJoin(checkoutSessions, and(eq(checkoutSessions.id, partnerNotifications.sessionId), eq(checkoutSessions.partnerId, partnerId)))
    .where(eq(partnerNotifications.partnerId, partnerId))
    .orderBy(desc(partnerNotifications.createdAt), desc(partnerNotifications.id))
    .limit(size + 1)
    .offset((Math.max(1, page) - 1) * size);
  const items = rows.slice(0, size).map(({ payload, ...row }) => ({ ...row, type: payload?.type ?? `checkout.session.${row.state}` }));
  return { items, more: rows.length > size };
}

/** What a resend can come to, as the pages that offer it say it (`?resent=`). */
export const RESEND_OUTCOMES = ["delivered", "failed", "busy", "not_found"] as const;
export type ResendOutcome = (typeof RESEND_OUTCOMES)[number];

/**
 * Queues the partner's notification for delivery now, delivered or not (the same `webhook-id`: a
 * redelivery, which the partner deduplicates like any retry), then tries it at once. `not_found`:
 * no such notification of this partner.
 */
export async function resendNotification(
  db: Db,
  partnerId: string,
  id: string,
  options: DeliveryOptions = {},
): Promise<{ ok: true; result: DeliveryResult } | { ok: false; reason: "not_found" }> {
  const now = options.now ?? new Date();
  const [row] = await db
    .update(partnerNotifications)
    .set({ deliveredAt: null, nextAttemptAt: now })
    .where(and(eq(partnerNotifications.id, id), eq(partnerNotifications.partnerId, partnerId)))
    .returning({ id: partnerNotifications.id });
  if (!row) return { ok: false, reason: "not_found" };
  return { ok: true, result: await deliverNotificationNow(db, row.id, options) };
}

/** The test event: about no session, so a partner's handler can answer 2xx and do nothing else. */
export const TEST_NOTIFICATION_TYPE = "notification.test";

export function testNotificationPayload(now: Date): NotificationTestPayload {
  return { type: TEST_NOTIFICATION_TYPE, timestamp: now.toISOString(), data: { test: true } };
}

export interface TestOptions {
  environment: FinancingEnvironment;
  resolve?: Resolve;
  now?: Date;
}

/** Sends a signed test event to the partner's notification URL now (not stored, not retried) and says what came of it. */
export async function sendTestNotification(
  db: Db,
  partnerId: string,
  options: TestOptions,
): Promise<{ webhookId: string; outcome: SendOutcome }> {
  const now = options.now ?? new Date();
  const [partner] = await db.select().from(partners).where(eq(partners.id, partnerId)).limit(1);
  const webhookId = `msg_test_${randomBytes(12).toString("base64url")}`;
  if (!partner) return { webhookId, outcome: { ok: false, failure: "not_configured", status: null, error: "no partner" } };
  const body = JSON.stringify(testNotificationPayload(now));
  const outcome = await sendSigned(partner, webhookId, body, {
    policy: notificationPolicy(options.environment),
    resolve: options.resolve,
    now,
  });
  return { webhookId, outcome };
}

/**
 * A new signing secret for the partner, returned once (it is stored sealed, and shown to no one
 * again). The secret it replaces keeps signing for PREVIOUS_SECRET_VALIDITY_MS: notifications carry
 * both signatures meanwhile. A second rotation within that day replaces the previous secret too:
 * the one from before the first rotation stops signing at once.
 */
export async function rotateSigningSecret(
  db: Db,
  partnerId: string,
  now = new Date(),
): Promise<{ ok: true; secret: string; previousValidUntil: Date | null } | { ok: false; reason: "not_found" | "conflict" }> {
  const [partner] = await db.select().from(partners).where(eq(partners.id, partnerId)).limit(1);
  if (!partner) return { ok: false, reason: "not_found" };
  const current = openPartnerSecret(partner, "signingSecret");
  const secret = newSigningSecret();
  const previousValidUntil = current === null ? null : new Date(now.getTime() + PREVIOUS_SECRET_VALIDITY_MS);
  const updated = await db
    .update(partners)
    .set({
      signingSecret: sealPartnerSecret(partnerId, "signingSecret", secret),
      previousSigningSecret: current === null ? null : sealPartnerSecret(partnerId, "previousSigningSecret", current),
      previousSigningSecretExpiresAt: previousValidUntil,
    })
    // Only over the secret read above: two rotations at once do not both "win".
    .where(and(eq(partners.id, partnerId), partnerSecretIs(partner)))
    .returning({ id: partners.id });
  if (updated.length === 0) return { ok: false, reason: "conflict" };
  return { ok: true, secret, previousValidUntil };
}

function partnerSecretIs(partner: PartnerRow) {
  return partner.signingSecret === null ? isNull(partners.signingSecret) : eq(partners.signingSecret, partner.signingSecret);
}

/** What the settings part of the page shows: never a secret. */
export interface NotificationSettings {
  notificationUrl: string | null;
  hasSigningSecret: boolean;
  /** Until when the secret before the last rotation still signs; null: it no longer does. */
  previousSecretValidUntil: Date | null;
}

export function notificationSettings(partner: PartnerRow, now = new Date()): NotificationSettings {
  const until = partner.previousSigningSecretExpiresAt;
  return {
    notificationUrl: partner.notificationUrl,
    hasSigningSecret: partner.signingSecret !== null,
    previousSecretValidUntil: partner.previousSigningSecret !== null && until !== null && until > now ? until : null,
  };
}
