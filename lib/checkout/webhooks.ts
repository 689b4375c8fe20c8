import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import { durableWork } from "@/lib/db/durable-work";
import { webhookEvents, type WebhookEventRow } from "@/lib/db/schema";
import { webhookEventSchema } from "@/lib/financing/contract";
import { isFinancingApiError } from "@/lib/financing/errors";
import { bodyProblemMessage, readJsonBody } from "@/lib/http/body";
import type { CheckoutContext } from "./flow";
import { partnerById } from "@/lib/partners/partners";
import { getSessionByOperation, recordOperationStatus } from "./sessions";
import { logError, loggerFor } from "@/lib/logger";

const log = loggerFor("webhooks");

/**
 * Webhooks from the partner API. They are unsigned, redelivered until acknowledged, and may come
 * twice or out of order, so: the URL carries a secret token; each eventId is stored once (primary
 * key); the answer comes at once and the work happens after it; the body is only a hint — the
 * status is read from the API, applied forward only, and only then is the event acknowledged.
 */

export const WEBHOOK_BODY_MAX_BYTES = 4 * 1024;

/**
 * How processing an event ended (the column `result`; `detail` says why, for staff):
 * - acknowledged: its operation's status was applied, and the event acknowledged;
 * - rejected: nothing to apply and nothing acknowledged (not our operation, or the API refused it);
 * - status_mismatch: applied, but not acknowledged: the body's status was not the event's;
 * - superseded: applied, but not acknowledged: a newer event replaced it (that one is).
 */
export type WebhookEventResult = "acknowledged" | "rejected" | "status_mismatch" | "superseded";
/**
 * Processing as durable work: one processor holds an event for 30 s before another instance may
 * take it over; a failed attempt is retried by us after 5 s, 30 s, 2 min, 10 min, then every
 * 30 min (the API's redeliveries come on top).
 */
const work = durableWork(
  {
    doneAt: webhookEvents.processedAt,
    attempts: webhookEvents.attempts,
    lockedUntil: webhookEvents.lockedUntil,
    nextAttemptAt: webhookEvents.nextAttemptAt,
  },
  { lockMs: 30_000, retryDelaysMs: [5_000, 30_000, 120_000, 600_000, 1_800_000] },
);

function sameToken(given: string, expected: string): boolean {
  // Hash both sides first: timingSafeEqual needs equal lengths, and the length must not leak either.
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

export type ReceiveResult =
  { status: 404 } | { status: 400 | 413; message: string } | { status: 200; eventId: number; duplicate: boolean; process: boolean };

/**
 * Checks and stores one delivery. Nothing is stored for a wrong token or a bad body. A duplicate
 * is answered 2xx and changes nothing, but an event not yet processed is processed again.
 */
export async function receiveWebhook(ctx: CheckoutContext, token: string, request: Request): Promise<ReceiveResult> {
  if (!sameToken(token, ctx.webhookToken)) {
    // The token is never logged, the one sent no more than the right one.
    log.warn("webhooks: a delivery with a wrong token was refused");
    return { status: 404 };
  }

  // Refused by its declared length before anything is read, else as soon as it passes the cap.
  const body = await readJsonBody(request, WEBHOOK_BODY_MAX_BYTES);
  if (!body.ok) {
    if (body.problem === "too_large") return { status: 413, message: "The body is too large" };
    return {
      status: 400,
      message: body.problem === "not_json" || body.problem === "empty" ? "The body is not JSON" : `The body ${bodyProblemMessage(body)}`,
    };
  }
  const parsed = webhookEventSchema.safeParse(body.value);
  if (!parsed.success) {
    return { status: 400, message: `Invalid webhook event: ${parsed.error.issues.map((i) => i.path.join(".") || "(body)").join(", ")}` };
  }
  const event = parsed.data;

  const inserted = await ctx.db
    .insert(webhookEvents)
    .values({ eventId: event.eventId, operationId: event.operationIdentifier, claimedStatus: event.operationStatus })
    .onConflictDoNothing()
    .returning({ eventId: webhookEvents.eventId });
  if (inserted.length > 0) return { status: 200, eventId: event.eventId, duplicate: false, process: true };

  const [existing] = await ctx.db
    .update(webhookEvents)
    .set({ deliveries: sql`${webhookEvents.deliveries} + 1` })
    .where(eq(webhookEvents.eventId, event.eventId))
    .returning();
  if (existing && existing.claimedStatus !== event.operationStatus && existing.result !== "acknowledged") {
    // The first delivery's claim could not be acknowledged (a forged or garbled body under a real
    // eventId): take this delivery's claim and process the event again.
    await ctx.db
      .update(webhookEvents)
      .set({ claimedStatus: event.operationStatus, processedAt: null, result: null, detail: null, nextAttemptAt: new Date() })
      .where(eq(webhookEvents.eventId, event.eventId));
    return { status: 200, eventId: event.eventId, duplicate: true, process: true };
  }
  return { status: 200, eventId: event.eventId, duplicate: true, process: existing !== undefined && existing.processedAt === null };
}

/** Takes the event for this processor, unless it is done or another processor holds it. */
async function claim(ctx: CheckoutContext, eventId: number, now: Date): Promise<WebhookEventRow | undefined> {
  const [row] = await ctx.db
    .update(webhookEvents)
    .set(work.claim(now))
    .where(and(eq(webhookEvents.eventId, eventId), work.claimable(now)))
    .returning();
  return row;
}

async function finish(ctx: CheckoutContext, eventId: number, result: WebhookEventResult, detail: string | null = null): Promise<void> {
  await ctx.db
    .update(webhookEvents)
    .set({ processedAt: new Date(), result, detail, ...work.done() })
    .where(eq(webhookEvents.eventId, eventId));
  log.info({ eventId, result }, "webhooks: event processed");
}

async function postpone(ctx: CheckoutContext, row: WebhookEventRow, error: unknown, now: Date): Promise<void> {
  const message = isFinancingApiError(error) ? `${error.kind} ${error.status ?? ""} ${error.errorCode ?? ""}`.trim() : String(error);
  await ctx.db
    .update(webhookEvents)
    .set(work.postpone(row.attempts, message, now))
    .where(eq(webhookEvents.eventId, row.eventId));
}

/** Ack errors that end the event (with the reason); anything else is retried. */
const FINAL_ACK_ERRORS: Partial<Record<string, { result: WebhookEventResult; detail: string }>> = {
  OPERATION_NOT_FOUND: { result: "rejected", detail: "the API does not know the operation" },
  OPERATION_ACCESS_DENIED: { result: "rejected", detail: "the operation belongs to another account" },
  WEBHOOK_EVENT_NOT_FOUND: { result: "rejected", detail: "the API does not know the event" },
  WEBHOOK_EVENT_OPERATION_MISMATCH: { result: "rejected", detail: "the event is not the operation's" },
  // The body's status was not the event's: the status applied came from the API anyway.
  WEBHOOK_EVENT_STATUS_MISMATCH: { result: "status_mismatch", detail: "the body's status was not the event's, so it was not acknowledged" },
  // A newer event replaced it; that one carries the news and will be acknowledged.
  WEBHOOK_EVENT_NOT_ACKNOWLEDGEABLE: { result: "superseded", detail: "superseded by a newer event" },
};

export type ProcessResult = "processed" | "skipped" | "retry";

/**
 * Processes one stored event: reads the operation's status from the partner API (never the body's),
 * applies it to its session forward only, and acknowledges the event. A failure leaves the event
 * unacknowledged (the API redelivers it) and schedules our own retry.
 */
export async function processWebhookEvent(ctx: CheckoutContext, eventId: number, now = new Date()): Promise<ProcessResult> {
  const row = await claim(ctx, eventId, now);
  if (!row) return "skipped";
  try {
    const session = await getSessionByOperation(ctx.db, row.operationId);
    if (!session) {
      // Not one of ours (or a forged id): nothing to apply, and nothing to acknowledge for someone else.
      await finish(ctx, eventId, "rejected", "no checkout session has this operation");
      return "processed";
    }
    const partner = await partnerById(ctx.db, session.partnerId);
    if (!partner) throw new Error("the session's partner is missing");
    const client = ctx.clientFor(partner);

    let read;
    try {
      read = await client.getStatus(row.operationId);
    } catch (error) {
      if (isFinancingApiError(error) && (error.status === 404 || error.status === 403)) {
        await finish(ctx, eventId, "rejected", "the API does not show this operation to us");
        return "processed";
      }
      throw error;
    }
    await recordOperationStatus(ctx.db, session.id, read.status, "webhook");

    try {
      await client.acknowledgeWebhookEvent({
        operationIdentifier: row.operationId,
        operationStatus: row.claimedStatus,
        eventId: row.eventId,
      });
    } catch (error) {
      const end = isFinancingApiError(error) && error.errorCode ? FINAL_ACK_ERRORS[error.errorCode] : undefined;
      if (!end) throw error;
      await finish(ctx, eventId, end.result, end.detail);
      return "processed";
    }
    await finish(ctx, eventId, "acknowledged");
    return "processed";
  } catch (error) {
    logError(log, "webhooks: processing failed; it will be retried", error, { eventId, operationId: row.operationId });
    await postpone(ctx, row, error, now);
    return "retry";
  }
}

/** Events whose processing is due again (failed earlier, or lost with a killed instance). */
export async function dueWebhookEvents(ctx: CheckoutContext, now = new Date(), limit = 50): Promise<number[]> {
  const rows = await ctx.db
    .select({ eventId: webhookEvents.eventId })
    .from(webhookEvents)
    .where(work.due(now))
    .orderBy(asc(webhookEvents.eventId))
    .limit(limit);
  return rows.map((r) => r.eventId);
}

export async function webhookEvent(ctx: CheckoutContext, eventId: number): Promise<WebhookEventRow | undefined> {
  const [row] = await ctx.db.select().from(webhookEvents).where(eq(webhookEvents.eventId, eventId)).limit(1);
  return row;
}
