import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { WebhookEventResult } from "@/lib/vocabulary/session";
import { durableWork } from "@/lib/db/durable-work";
import { webhookEvents, type WebhookEventRow } from "@/lib/db/schema";
import { webhookEventSchema } from "@/lib/financing/contract";
import { isFinancingApiError } from "@/lib/financing/errors";
import { bodyProblemMessage, readJsonBody } from "@/lib/http/body";
import type { CheckoutContext } from "../session/flow";
import { partnerById } from "@/lib/partners/partners";
import { getSessionByOperation } from "../session/sessions";
import { recordOperationStatus } from "../session/session-status";
import type { CheckoutSession } from "../session/session-state";
import { logError, loggerFor } from "@/lib/logger";
import { duringIntake, holdEvent, releaseEvent } from "@/lib/ops/lifecycle";
import { metrics } from "@/lib/ops/metrics";
import { contextFromTraceparent, inSpan, SESSION_ID_ATTRIBUTE } from "@/lib/tracing/spans";

const log = loggerFor("webhooks");

/**
 * Webhooks from the partner API. They are unsigned, redelivered until acknowledged, and may come
 * twice or out of order, so: the URL carries a secret token; each (eventId, operation) is stored
 * once (primary key); the answer comes at once and the work happens after it; the body is only a
 * hint — the status is read from the API, applied forward only, and only then is the event
 * acknowledged.
 *
 * An event is what the API vouches for, never what was posted first. Anyone holding the URL may
 * post an eventId before the API uses it: with an operation id of their own (another key, so it
 * never meets the genuine event), or with a real operation and a status the API will not vouch for
 * (the same key: its processing ends `rejected` or `status_mismatch`, and a later delivery of that
 * key reopens it, so the genuine event is applied and acknowledged at once). A delivery that comes
 * while the event is being processed is not lost either: the processor sees it and takes another
 * pass. And after a reset of the API (or another deployment of it), an eventId may come again for
 * another operation: another key.
 */

export const WEBHOOK_BODY_MAX_BYTES = 4 * 1024;

/**
 * How processing an event ended (the column `result`; `detail` says why, for staff):
 * - acknowledged: its operation's status was applied, and the event acknowledged;
 * - rejected: nothing to apply and nothing acknowledged (not our operation, or the API refused it);
 * - status_mismatch: applied, but not acknowledged: the body's status was not the event's;
 * - superseded: applied, but not acknowledged: a newer event replaced it (that one is).
 */
export type { WebhookEventResult };
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

/** A stored event's key: an eventId names an event only together with its operation. */
export interface WebhookEventKey {
  eventId: number;
  operationId: string;
}

export type ReceiveResult =
  | { status: 404 }
  /** In the API's error format: the code it documents for the status, and the fields at fault. */
  | { status: 400 | 413; code: "validation_failed" | "payload_too_large"; message: string; fields: { field: string; message: string }[] }
  | { status: 200; eventId: number; operationId: string; duplicate: boolean; process: boolean };

const byKey = (key: WebhookEventKey) => and(eq(webhookEvents.eventId, key.eventId), eq(webhookEvents.operationId, key.operationId));

/**
 * Checks and stores one delivery. Nothing is stored for a wrong token or a bad body. A duplicate
 * is answered 2xx; it is processed (again) when its event is not done, when the API rejected what
 * was stored under its key (a forgery that came first), or when it claims another status than an
 * event not acknowledged.
 */
export function receiveWebhook(ctx: CheckoutContext, token: string, request: Request): Promise<ReceiveResult> {
  // Counted while it runs: the worker's processing makes way (lib/ops/lifecycle.ts, duringIntake).
  return duringIntake(() =>
    inSpan("checkout.webhook.receive", {}, async (span) => {
      const result = await receive(ctx, token, request);
      span.setAttribute("webhook.outcome", result.status);
      // The event's key, as its processing span carries it (checkout.webhook.process, in the
      // checkout's trace, later): one query by it ties the delivery to what it did.
      if (result.status === 200) {
        span.setAttributes({
          "webhook.event_id": result.eventId,
          "financing.operation_id": result.operationId,
          "webhook.duplicate": result.duplicate,
        });
      }
      return result;
    }),
  );
}

async function receive(ctx: CheckoutContext, token: string, request: Request): Promise<ReceiveResult> {
  if (!sameToken(token, ctx.webhookToken)) {
    // The token is never logged, the one sent no more than the right one.
    log.warn("webhooks: a delivery with a wrong token was refused");
    return { status: 404 };
  }

  // Refused by its declared length before anything is read, else as soon as it passes the cap.
  const body = await readJsonBody(request, WEBHOOK_BODY_MAX_BYTES);
  if (!body.ok) {
    // The same answer whether the length was declared (the proxy's) or found while reading.
    const message = body.problem === "empty" ? "is not JSON" : bodyProblemMessage(body);
    const tooLarge = body.problem === "too_large";
    return {
      status: tooLarge ? 413 : 400,
      code: tooLarge ? "payload_too_large" : "validation_failed",
      message: `The body ${message}`,
      fields: [{ field: "(body)", message: `The body ${message}` }],
    };
  }
  const parsed = webhookEventSchema.safeParse(body.value);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => ({ field: issue.path.join(".") || "(body)", message: issue.message }));
    return {
      status: 400,
      code: "validation_failed",
      message: `Invalid webhook event: ${fields.map((f) => f.field).join(", ")}`,
      fields,
    };
  }
  const event = parsed.data;

  const key = { eventId: event.eventId, operationId: event.operationIdentifier };
  const [stored] = await storeDelivery(ctx.db).execute({ ...key, claimedStatus: event.operationStatus });
  const duplicate = stored !== undefined && stored.deliveries > 1;
  return { status: 200, ...key, duplicate, process: stored !== undefined && stored.processedAt === null };
}

/**
 * Stores a delivery, new or duplicate, in one statement (one round trip on the request path), built
 * once per database and prepared (the query builder's work is not redone for every delivery). A
 * duplicate counts as a delivery and, under the same row lock, so that a processor finishing at the
 * same moment sees this delivery (the count) or finishes before it (and the event is reopened), may
 * reopen the event: when what was stored under this key was rejected by the API (a forgery that
 * came first: this may be the genuine event), or its claim was not acknowledged and this delivery
 * claims another status (a forged or garbled body under the genuine key): this delivery's claim is
 * taken, and the event is processed again now. A new row has 1 delivery, a duplicate more.
 */
function storeDelivery(db: CheckoutContext["db"]): StoreDeliveryStatement {
  let prepared = storeDeliveryStatements.get(db);
  if (!prepared) {
    prepared = buildStoreDelivery(db);
    storeDeliveryStatements.set(db, prepared);
  }
  return prepared;
}

function buildStoreDelivery(db: CheckoutContext["db"]) {
  const reopen = sql`(${webhookEvents.result} is distinct from 'acknowledged' and (${webhookEvents.result} = 'rejected' or ${webhookEvents.claimedStatus} <> excluded.claimed_status))`;
  return db
    .insert(webhookEvents)
    .values({
      eventId: sql.placeholder("eventId"),
      operationId: sql.placeholder("operationId"),
      claimedStatus: sql.placeholder("claimedStatus"),
    })
    .onConflictDoUpdate({
      target: [webhookEvents.eventId, webhookEvents.operationId],
      set: {
        deliveries: sql`${webhookEvents.deliveries} + 1`,
        claimedStatus: sql`case when ${reopen} then excluded.claimed_status else ${webhookEvents.claimedStatus} end`,
        processedAt: sql`case when ${reopen} then null else ${webhookEvents.processedAt} end`,
        result: sql`case when ${reopen} then null else ${webhookEvents.result} end`,
        detail: sql`case when ${reopen} then null else ${webhookEvents.detail} end`,
        nextAttemptAt: sql`case when ${reopen} then now() else ${webhookEvents.nextAttemptAt} end`,
      },
    })
    .returning({ deliveries: webhookEvents.deliveries, processedAt: webhookEvents.processedAt })
    .prepare("webhook_store_delivery");
}

type StoreDeliveryStatement = ReturnType<typeof buildStoreDelivery>;
const storeDeliveryStatements = new WeakMap<CheckoutContext["db"], StoreDeliveryStatement>();

/** Takes the event for this processor, unless it is done or another processor holds it. */
async function claim(ctx: CheckoutContext, key: WebhookEventKey, now: Date): Promise<WebhookEventRow | undefined> {
  const [row] = await ctx.db
    .update(webhookEvents)
    .set(work.claim(now))
    .where(and(byKey(key), work.claimable(now)))
    .returning();
  return row;
}

/**
 * Ends processing. Acknowledged is final (the API vouched for the event as claimed). Any other end
 * is final only if no delivery came while processing ran: one that did may be the genuine event
 * (or bring the claim the API vouches for), so the event is unlocked, due now, and "again" says
 * to take another pass.
 */
async function finish(
  ctx: CheckoutContext,
  row: WebhookEventRow,
  result: WebhookEventResult,
  detail: string | null = null,
): Promise<"processed" | "again"> {
  const done = { processedAt: new Date(), result, detail, ...work.done() };
  metrics().webhooksProcessed.inc({ result });
  // A rejected event's operation id is whatever the body said (any text of 1-200 characters: a
  // name or an address would do), not an operation of ours: not logged (its row keeps it).
  const logged = { eventId: row.eventId, ...(result === "rejected" ? {} : { operationId: row.operationId }), result };
  if (result === "acknowledged") {
    await ctx.db
      .update(webhookEvents)
      .set({ ...done, claimedStatus: row.claimedStatus })
      .where(byKey(row));
    log.info(logged, "webhooks: event processed");
    return "processed";
  }
  const finished = await ctx.db
    .update(webhookEvents)
    .set(done)
    .where(and(byKey(row), eq(webhookEvents.deliveries, row.deliveries), eq(webhookEvents.claimedStatus, row.claimedStatus)))
    .returning({ eventId: webhookEvents.eventId });
  if (finished.length > 0) {
    log.info(logged, "webhooks: event processed");
    return "processed";
  }
  await ctx.db.update(webhookEvents).set({ lockedUntil: null, nextAttemptAt: new Date() }).where(byKey(row));
  return "again";
}

async function postpone(ctx: CheckoutContext, row: WebhookEventRow, error: unknown, now: Date): Promise<void> {
  const message = isFinancingApiError(error) ? `${error.kind} ${error.status ?? ""} ${error.errorCode ?? ""}`.trim() : String(error);
  metrics().webhooksProcessed.inc({ result: "retry" });
  await ctx.db
    .update(webhookEvents)
    .set(work.postpone(row.attempts, message, now))
    .where(byKey(row));
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

/** Passes in a row for one call (deliveries that keep coming meanwhile): the rest is left to the worker, due now. */
const MAX_PASSES = 5;

/**
 * Processes one stored event: reads the operation's status from the partner API (never the body's),
 * applies it to its session forward only, and acknowledges the event. A failure leaves the event
 * unacknowledged (the API redelivers it) and schedules our own retry.
 */
export async function processWebhookEvent(ctx: CheckoutContext, key: WebhookEventKey, now = new Date()): Promise<ProcessResult> {
  let result: ProcessResult = "skipped";
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const outcome = await processOnce(ctx, key, pass === 0 ? now : new Date());
    if (outcome !== "again") return outcome;
    result = "processed";
  }
  return result;
}

async function processOnce(ctx: CheckoutContext, key: WebhookEventKey, now: Date): Promise<ProcessResult | "again"> {
  const row = await claim(ctx, key, now);
  if (!row) return "skipped";
  // Held until it ends: a shutdown that cannot wait for it hands it back (releaseHeldEvents).
  holdEvent(key);
  try {
    const session = await getSessionByOperation(ctx.db, row.operationId);
    if (!session) {
      // Not one of ours (or a forged id): nothing to apply, and nothing to acknowledge for someone else.
      return await finish(ctx, row, "rejected", "no checkout session has this operation");
    }
    // A child of the session's trace (the plan chosen): one query shows the webhook with the checkout.
    return await inSpan(
      "checkout.webhook.process",
      {
        parent: contextFromTraceparent(session.traceParent),
        attributes: { [SESSION_ID_ATTRIBUTE]: session.id, "webhook.event_id": row.eventId, "financing.operation_id": row.operationId },
      },
      async (span) => {
        const result = await applyEvent(ctx, row, session);
        span.setAttribute("webhook.result", result);
        return result;
      },
    );
  } catch (error) {
    logError(log, "webhooks: processing failed; it will be retried", error, { eventId: row.eventId, operationId: row.operationId });
    await postpone(ctx, row, error, now);
    return "retry";
  } finally {
    releaseEvent(key);
  }
}

/** Reads the event's operation status from the API, applies it to its session, and acknowledges the event. */
async function applyEvent(ctx: CheckoutContext, row: WebhookEventRow, session: CheckoutSession): Promise<"processed" | "again"> {
  const partner = await partnerById(ctx.db, session.partnerId);
  if (!partner) throw new Error("the session's partner is missing");
  const client = ctx.clientFor(partner);

  let read;
  try {
    read = await client.getStatus(row.operationId);
  } catch (error) {
    if (isFinancingApiError(error) && (error.status === 404 || error.status === 403)) {
      return finish(ctx, row, "rejected", "the API does not show this operation to us");
    }
    throw error;
  }
  await recordOperationStatus(ctx.db, { sessionId: session.id, operationId: row.operationId }, read.status, "webhook");

  try {
    await client.acknowledgeWebhookEvent({
      operationIdentifier: row.operationId,
      operationStatus: row.claimedStatus,
      eventId: row.eventId,
    });
  } catch (error) {
    const end = isFinancingApiError(error) && error.errorCode ? FINAL_ACK_ERRORS[error.errorCode] : undefined;
    if (!end) throw error;
    return finish(ctx, row, end.result, end.detail);
  }
  return finish(ctx, row, "acknowledged");
}

/**
 * Hands back events this process claimed and did not finish (a shutdown that could not wait): their
 * lock is lifted and they are due now, so another instance (or this one restarted) takes them at
 * once instead of after the lock's 30 s. One that finished meanwhile is left alone.
 */
export async function releaseClaims(ctx: Pick<CheckoutContext, "db">, keys: WebhookEventKey[]): Promise<number> {
  let released = 0;
  for (const key of keys) {
    const rows = await ctx.db
      .update(webhookEvents)
      .set({ lockedUntil: null, nextAttemptAt: new Date() })
      .where(and(byKey(key), isNull(webhookEvents.processedAt)))
      .returning({ eventId: webhookEvents.eventId });
    released += rows.length;
  }
  return released;
}

/** Events whose processing is due again (failed earlier, or lost with a killed instance). */
export async function dueWebhookEvents(ctx: CheckoutContext, now = new Date(), limit = 50): Promise<WebhookEventKey[]> {
  return ctx.db
    .select({ eventId: webhookEvents.eventId, operationId: webhookEvents.operationId })
    .from(webhookEvents)
    .where(work.due(now))
    .orderBy(asc(webhookEvents.eventId), asc(webhookEvents.operationId))
    .limit(limit);
}

export async function webhookEvent(ctx: CheckoutContext, key: WebhookEventKey): Promise<WebhookEventRow | undefined> {
  const [row] = await ctx.db.select().from(webhookEvents).where(byKey(key)).limit(1);
  return row;
}
