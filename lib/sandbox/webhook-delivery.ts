import "server-only";
import { lookup as dnsLookup } from "node:dns/promises";
import { and, asc, eq, inArray, isNull, lte, ne, sql, type SQL } from "drizzle-orm";
import type { WebhookStatus } from "@/lib/financing/contract";
import type { SandboxDb } from "./db/connection";
import { sandboxWebhookDeliveries, sandboxWebhookEvents, type SandboxWebhookEventRow } from "./db/schema";
import { businessError } from "./errors";
import { checkTarget, emptyAllowList, type AllowList, type Lookup } from "./targets";

/**
 * The sandbox's webhooks: each status change an operation emits is an event, delivered to the
 * operation's webhookUrl at once and again on a schedule until acknowledged or superseded by a
 * newer event of the same operation. The engine (engine.ts) records events in its transactions and
 * tells this when they are due.
 */

/** Delay before each redelivery of an unacknowledged webhook: 1 min, 5 min, 15 min, 1 h, 6 h, 24 h. */
export const REDELIVERY_SCHEDULE_SECONDS = [60, 300, 900, 3_600, 21_600, 86_400] as const;
// The claim computes the next due time in SQL: element n+1 of this array after the n-th attempt
// (1-based, NULL past the end: no more attempts).
const SCHEDULE_MS_ARRAY = sql.raw(`ARRAY[${REDELIVERY_SCHEDULE_SECONDS.map((s) => s * 1000).join(",")}]::bigint[]`);

export interface WebhookAttempt {
  at: string;
  status?: number;
  error?: string;
}

export interface WebhookEventRecord {
  eventId: number;
  operationId: string;
  status: WebhookStatus;
  /** The full target: deliver to it, never show or log it (see `redactUrl`). */
  url: string;
  createdAt: number;
  /** Deliveries claimed so far (an attempt in flight counts). */
  attemptCount: number;
  attempts: WebhookAttempt[];
  acknowledged: boolean;
  /** A newer event of the same operation replaced it: no more redeliveries, and no ack. */
  supersededBy?: number;
  /** When the next delivery is due (owner's test clock); undefined when none is. */
  nextAttemptAt?: number;
}

export interface WebhookDeliveryOptions {
  /** Delivers webhooks; the global fetch by default. */
  fetch?: typeof fetch;
  webhookTimeoutMs?: number;
  /** Resolves webhook hosts before a delivery; DNS by default. */
  lookup?: Lookup;
  /** Local mode: webhooks may target this machine's loopback (default true). */
  localMode?: boolean;
  allowedTargets?: AllowList;
  /** The paths a loopback target may start with in local mode (the served sandbox: SANDBOX_LOOPBACK_PATHS); default any. */
  loopbackPaths?: readonly string[];
  /** The ports a loopback target may use in local mode (the served sandbox: the app's own); default any. */
  loopbackPorts?: readonly number[];
}

/** PUT /operations/webhook-events/ack's body. */
export interface WebhookAck {
  operationIdentifier: string;
  operationStatus: WebhookStatus;
  eventId: number;
}

/** What of an operation its events need. */
interface EventSource {
  id: string;
  account: string;
  request: { webhookUrl?: string | null | undefined };
}

export class WebhookDelivery {
  private readonly doFetch: typeof fetch;
  private readonly webhookTimeoutMs: number;
  private readonly lookup: Lookup;
  private readonly localMode: boolean;
  private readonly allowedTargets: AllowList;
  private readonly loopbackPaths: readonly string[] | undefined;
  private readonly loopbackPorts: readonly number[] | undefined;

  constructor(
    private readonly db: () => Promise<SandboxDb>,
    /** The engine's background work: a delivery is waited for by its `idle()`. */
    private readonly track: (work: Promise<unknown>) => Promise<void>,
    options: WebhookDeliveryOptions = {},
  ) {
    this.doFetch = options.fetch ?? ((...args) => globalThis.fetch(...args));
    this.webhookTimeoutMs = options.webhookTimeoutMs ?? 5_000;
    this.lookup = options.lookup ?? ((hostname) => dnsLookup(hostname, { all: true, verbatim: true }));
    this.localMode = options.localMode ?? true;
    this.allowedTargets = options.allowedTargets ?? emptyAllowList();
    this.loopbackPaths = options.loopbackPaths;
    this.loopbackPorts = options.loopbackPorts;
  }

  async eventsOf(operationId: string): Promise<WebhookEventRecord[]> {
    const db = await this.db();
    const events = await db
      .select()
      .from(sandboxWebhookEvents)
      .where(eq(sandboxWebhookEvents.operationId, operationId))
      .orderBy(asc(sandboxWebhookEvents.eventId));
    if (events.length === 0) return [];
    const deliveries = await db
      .select()
      .from(sandboxWebhookDeliveries)
      .where(
        inArray(
          sandboxWebhookDeliveries.eventId,
          events.map((e) => e.eventId),
        ),
      )
      .orderBy(asc(sandboxWebhookDeliveries.id));
    return events.map((event) =>
      toEventRecord(
        event,
        deliveries.filter((d) => d.eventId === event.eventId),
      ),
    );
  }

  /** Acknowledges an event of an operation the caller may read (the engine checked). */
  async acknowledge(ack: WebhookAck): Promise<void> {
    const db = await this.db();
    await db.transaction(async (tx) => {
      const [event] = await tx.select().from(sandboxWebhookEvents).where(eq(sandboxWebhookEvents.eventId, ack.eventId)).for("update");
      if (!event) throw businessError(404, "WEBHOOK_EVENT_NOT_FOUND", `Webhook event ${ack.eventId} not found`);
      if (event.operationId !== ack.operationIdentifier) {
        throw businessError(
          403,
          "WEBHOOK_EVENT_OPERATION_MISMATCH",
          `Webhook event ${ack.eventId} is not an event of operation ${ack.operationIdentifier}`,
        );
      }
      if (event.status !== ack.operationStatus) {
        throw businessError(
          409,
          "WEBHOOK_EVENT_STATUS_MISMATCH",
          `Webhook event ${ack.eventId} carried ${event.status}, not ${ack.operationStatus}`,
          {
            eventStatus: event.status,
          },
        );
      }
      if (event.acknowledged) return;
      if (event.supersededBy !== null) {
        throw businessError(
          409,
          "WEBHOOK_EVENT_NOT_ACKNOWLEDGEABLE",
          `Webhook event ${ack.eventId} was superseded by event ${event.supersededBy}`,
          {
            supersededBy: event.supersededBy,
          },
        );
      }
      await tx
        .update(sandboxWebhookEvents)
        .set({ acknowledged: true, nextAttemptAt: null })
        .where(eq(sandboxWebhookEvents.eventId, ack.eventId));
    });
  }

  /** Delivers every unacknowledged, current event of the account now, due or not (control API). */
  async deliverAll(account: string, now: number): Promise<number> {
    return this.claimAndDeliver(eq(sandboxWebhookEvents.account, account), now);
  }

  /** Delivers the account's events whose next attempt is due at `now` (its test clock). */
  async deliverDue(account: string, now: number): Promise<number> {
    return this.claimAndDeliver(and(eq(sandboxWebhookEvents.account, account), lte(sandboxWebhookEvents.nextAttemptAt, now))!, now);
  }

  /** Delivers these just-recorded events (a change's), those still due. */
  async deliverEvents(eventIds: readonly number[], now: number): Promise<number> {
    return this.claimAndDeliver(
      and(inArray(sandboxWebhookEvents.eventId, [...eventIds]), lte(sandboxWebhookEvents.nextAttemptAt, now))!,
      now,
    );
  }

  /** Records the event and retires the operation's older unacknowledged ones. */
  async record(tx: SandboxDb, operation: EventSource, status: WebhookStatus, now: number): Promise<number | undefined> {
    const url = operation.request.webhookUrl;
    if (!url) return undefined;
    const [event] = await tx
      .insert(sandboxWebhookEvents)
      .values({ account: operation.account, operationId: operation.id, status, url, createdAt: now, nextAttemptAt: now })
      .returning({ eventId: sandboxWebhookEvents.eventId });
    const eventId = event!.eventId;
    await tx
      .update(sandboxWebhookEvents)
      .set({ supersededBy: eventId, nextAttemptAt: null })
      .where(
        and(
          eq(sandboxWebhookEvents.operationId, operation.id),
          eq(sandboxWebhookEvents.acknowledged, false),
          isNull(sandboxWebhookEvents.supersededBy),
          ne(sandboxWebhookEvents.eventId, eventId),
        ),
      );
    return eventId;
  }

  /**
   * Claims the current, unacknowledged events matching `where` and delivers them. The claim is one
   * UPDATE that counts the attempt and moves the next due time along the schedule, so a process
   * that claims an event is the only one to send that attempt.
   */
  private async claimAndDeliver(where: SQL, now: number): Promise<number> {
    const db = await this.db();
    const claimed = await db
      .update(sandboxWebhookEvents)
      .set({
        attemptCount: sql`${sandboxWebhookEvents.attemptCount} + 1`,
        nextAttemptAt: sql`${now}::bigint + (${SCHEDULE_MS_ARRAY})[${sandboxWebhookEvents.attemptCount} + 1]`,
      })
      .where(and(where, eq(sandboxWebhookEvents.acknowledged, false), isNull(sandboxWebhookEvents.supersededBy)))
      .returning();
    await Promise.all(claimed.map((event) => this.track(this.attempt(event, now))));
    return claimed.length;
  }

  private async attempt(event: SandboxWebhookEventRow, now: number): Promise<void> {
    const record: WebhookAttempt = { at: new Date(now).toISOString() };
    const target = await checkTarget(
      event.url,
      { localMode: this.localMode, allowList: this.allowedTargets, loopbackPaths: this.loopbackPaths, loopbackPorts: this.loopbackPorts },
      this.lookup,
    );
    if (!target.ok) {
      record.error = `refused: ${target.reason}`;
    } else {
      try {
        const response = await this.doFetch(event.url, {
          method: "POST",
          headers: { "Content-Type": "application/json", "User-Agent": "travel-financing-sandbox/1" },
          body: JSON.stringify({ operationIdentifier: event.operationId, operationStatus: event.status, eventId: event.eventId }),
          signal: AbortSignal.timeout(this.webhookTimeoutMs),
          redirect: "manual",
        });
        record.status = response.status;
        await response.body?.cancel();
      } catch (error) {
        // Fetch errors name the host and port at most, never the path.
        record.error = error instanceof Error ? describeFetchError(error) : String(error);
      }
    }
    const db = await this.db();
    try {
      await db
        .insert(sandboxWebhookDeliveries)
        .values({ eventId: event.eventId, at: record.at, status: record.status ?? null, error: record.error ?? null });
    } catch (error) {
      // The event may be gone meanwhile (a reset, the retention purge): then there is nothing to record.
      const [still] = await db
        .select({ id: sandboxWebhookEvents.eventId })
        .from(sandboxWebhookEvents)
        .where(eq(sandboxWebhookEvents.eventId, event.eventId));
      if (still) throw error;
    }
  }
}

function describeFetchError(error: Error): string {
  const cause = (error as { cause?: unknown }).cause;
  const code = cause && typeof cause === "object" && "code" in cause ? String((cause as { code: unknown }).code) : undefined;
  if (error.name === "TimeoutError") return "timed out";
  return code ? `${error.message} (${code})` : error.message;
}

function toEventRecord(event: SandboxWebhookEventRow, deliveries: (typeof sandboxWebhookDeliveries.$inferSelect)[]): WebhookEventRecord {
  return {
    eventId: event.eventId,
    operationId: event.operationId,
    status: event.status as WebhookStatus,
    url: event.url,
    createdAt: event.createdAt,
    attemptCount: event.attemptCount,
    attempts: deliveries.map((d) => ({
      at: d.at,
      ...(d.status === null ? {} : { status: d.status }),
      ...(d.error === null ? {} : { error: d.error }),
    })),
    acknowledged: event.acknowledged,
    ...(event.supersededBy === null ? {} : { supersededBy: event.supersededBy }),
    ...(event.nextAttemptAt === null ? {} : { nextAttemptAt: event.nextAttemptAt }),
  };
}
