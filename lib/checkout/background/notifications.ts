import "server-only";
import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, notExists, notInArray, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { durableWork } from "@/lib/db/durable-work";
import type { Db } from "@/lib/db";
import { signal } from "@/lib/db/signals";
import { partnerNotifications, partners, type PartnerRow } from "@/lib/db/schema";
import type { CheckoutContext } from "../session/flow";
import { OUTBOX_CHANNEL } from "../session/outbox";
import { sendSigned, type SendOutcome } from "./notification-send";
import { wakeable, type Wakeable } from "./wakeable";
import { getEnv, type FinancingEnvironment } from "@/lib/config/env";
import { logError, loggerFor } from "@/lib/logger";
import { contextFromTraceparent, inSpan, markFailed, SESSION_ID_ATTRIBUTE, SpanKind } from "@/lib/tracing/spans";
import { notificationPolicy, type DestinationPolicy } from "@/lib/security/network/addresses";
import type { Resolve } from "@/lib/security/network/outbound";

const log = loggerFor("notifications");

/**
 * Partner notifications' delivery: when a session's state changes, the partner's backend is told
 * with a signed POST (notification-send.ts: the Standard Webhooks format, the address policy and the
 * CAs), from the outbox written with the change, retried with backoff until it answers 2xx. Delivery
 * is at least once: the partner deduplicates on `webhook-id`.
 */

/**
 * Delivery as durable work: a sender holds a notification for a minute; backoff between attempts
 * of 10 s, 1 min, 5 min, 30 min, 2 h, then every 6 hours until the partner answers.
 */
const work = durableWork(
  {
    doneAt: partnerNotifications.deliveredAt,
    attempts: partnerNotifications.attempts,
    lockedUntil: partnerNotifications.lockedUntil,
    nextAttemptAt: partnerNotifications.nextAttemptAt,
  },
  { lockMs: 60_000, retryDelaysMs: [10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000] },
);

export interface DeliveryOptions {
  now?: Date;
  /** Which destinations are allowed: production's (https, public addresses) or the sandbox's (loopback too). */
  environment?: FinancingEnvironment;
  /** Tests: a resolver of their own. */
  resolve?: Resolve;
}

type NotificationRow = typeof partnerNotifications.$inferSelect;

/** Partners served at once by one instance: each is a lane of its own (see NotificationPump). */
const PARTNER_CONCURRENCY = 16;

interface Sending {
  policy: DestinationPolicy;
  resolve: Resolve | undefined;
}

function sendingFor(options: DeliveryOptions): Sending {
  return { policy: notificationPolicy(options.environment ?? getEnv().financing.environment), resolve: options.resolve };
}

/**
 * Due at `now`: no sender holds it, and either it was never attempted (due once committed: its
 * `nextAttemptAt` is when its transaction began, on the database's clock, which may be after `now`,
 * the start of a delivery pass, while positions before it are already due) or its backoff is over.
 */
function dueAt(now: Date): SQL {
  return and(work.claimable(now), or(eq(partnerNotifications.attempts, 0), lte(partnerNotifications.nextAttemptAt, now)))!;
}

/**
 * Partners with a notification due at `now`, up to `limit`, leaving out those in `except`. A partner
 * with no notification URL has its notifications wait in the outbox, unattempted (no failures, no
 * backoff): they are due as soon as a URL is saved (makeWaitingNotificationsDue).
 */
async function partnersWithDueNotifications(db: Db, now: Date, limit: number, except: readonly string[] = []): Promise<string[]> {
  const rows = await db
    .selectDistinct({ partnerId: partnerNotifications.partnerId })
    .from(partnerNotifications)
    .innerJoin(partners, and(eq(partners.id, partnerNotifications.partnerId), isNotNull(partners.notificationUrl)))
    .where(and(dueAt(now), except.length > 0 ? notInArray(partnerNotifications.partnerId, [...except]) : undefined))
    .limit(limit);
  return rows.map((row) => row.partnerId);
}

/**
 * Notifications of one partner claimed at once, oldest first: few enough that, each waiting the
 * send's timeout at worst (5 s), the last is sent well within the claim's lock (lockMs, 60 s), so no
 * other instance takes one over while this one still holds it.
 */
const CLAIM_BATCH = 10;

/**
 * Sends one partner's notifications due at `at`, one at a time, in the order of its event feed
 * (`partnerSeq`, the order their transactions committed in; `createdAt` is when each began, and
 * concurrent writers commit in another order), until none is left (each attempted is delivered, or
 * postponed past `at` by its backoff, so each is tried once) or every one left is held by another
 * instance. They are claimed a batch at a time with the partner read once, so that between two
 * POSTs only the first's outcome is written: under load each statement waits its turn on the event
 * loop, and four of them per notification made the partner's queue the slowest step of a checkout.
 * `attemptAt` is each attempt's moment; `track` runs each attempt, and stops the lane by answering
 * undefined (the process is draining): what the lane had claimed and not attempted is given back.
 * Returns how many were delivered.
 */
async function drainPartner(
  db: Db,
  partnerId: string,
  sending: Sending,
  at: Date,
  attemptAt: () => Date,
  track: (attempt: () => Promise<DeliveryResult>) => Promise<DeliveryResult> | undefined = (attempt) => attempt(),
): Promise<number> {
  let delivered = 0;
  for (;;) {
    const claimed = await claimDue(db, partnerId, at, attemptAt());
    if (claimed.length === 0) return delivered;
    const partner = await partnerOf(db, partnerId);
    for (const [index, row] of claimed.entries()) {
      const attempt = track(() => attemptClaimed(db, row, partner, sending, attemptAt()));
      if (!attempt) {
        await unclaim(db, claimed.slice(index));
        return delivered;
      }
      if ((await attempt) === "delivered") delivered++;
    }
  }
}

/**
 * Claims up to CLAIM_BATCH of the partner's notifications due at `at`, in its feed's order, unless
 * another sender (another instance's lane) holds some of them: one sender per partner at a time, so
 * that each goes after the one before it was answered. Two claiming at once pick the same rows, and
 * the second finds them claimed when the first commits (the UPDATE checks again under the row's lock).
 * No `SKIP LOCKED`: under concurrent writers it skipped a row and claimed the next ones.
 */
async function claimDue(db: Db, partnerId: string, at: Date, now: Date): Promise<NotificationRow[]> {
  const held = alias(partnerNotifications, "held");
  const heldElsewhere = db
    .select({ one: sql`1` })
    .from(held)
    .where(and(eq(held.partnerId, partnerId), isNull(held.deliveredAt), gt(held.lockedUntil, now)));
  const due = db
    .select({ id: partnerNotifications.id })
    .from(partnerNotifications)
    .where(and(eq(partnerNotifications.partnerId, partnerId), dueAt(at), notExists(heldElsewhere)))
    .orderBy(asc(partnerNotifications.partnerSeq))
    .limit(CLAIM_BATCH);
  const rows = await db
    .update(partnerNotifications)
    .set(work.claim(now))
    .where(and(inArray(partnerNotifications.id, due), work.claimable(now)))
    .returning();
  return rows.sort((a, b) => a.partnerSeq - b.partnerSeq);
}

/** Claimed notifications given back unattempted (the process is draining): due again at once, elsewhere. */
async function unclaim(db: Db, rows: readonly NotificationRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .update(partnerNotifications)
    .set(work.unclaim())
    .where(
      inArray(
        partnerNotifications.id,
        rows.map((row) => row.id),
      ),
    );
}

async function partnerOf(db: Db, partnerId: string): Promise<PartnerRow | undefined> {
  const [partner] = await db.select().from(partners).where(eq(partners.id, partnerId)).limit(1);
  return partner;
}

/**
 * Sends every notification due now (or at `options.now`), each tried once; returns how many were
 * delivered. Partners are served concurrently (up to PARTNER_CONCURRENCY at once), each one's
 * notifications in its event feed's order: a partner endpoint that hangs delays only its own, and for at
 * most the send's timeout each (notification-send.ts). No cap: however many are due, all are sent.
 */
export async function deliverDueNotifications(ctx: Pick<CheckoutContext, "db">, options: DeliveryOptions = {}): Promise<number> {
  const at = options.now ?? new Date();
  const sending = sendingFor(options);
  const waiting = await partnersWithDueNotifications(ctx.db, at, Number.MAX_SAFE_INTEGER);
  let delivered = 0;
  await Promise.all(
    Array.from({ length: Math.min(PARTNER_CONCURRENCY, waiting.length) }, async () => {
      for (let partnerId = waiting.shift(); partnerId !== undefined; partnerId = waiting.shift()) {
        const sent = await drainPartner(ctx.db, partnerId, sending, at, () => at);
        delivered += sent;
      }
    }),
  );
  return delivered;
}

/** wake: notifications may be due, send them now (a call while lanes run makes each look again); idle: nothing runs. */
export type NotificationPump = Wakeable;

interface Lane {
  /** A wake came since the lane last looked: it looks once more before it ends. */
  stale: boolean;
  done: Promise<void>;
}

/**
 * The notifications' delivery as it runs in the worker: woken by each committed notification (the
 * outbox's wake-up) and by the worker's rounds, it gives each partner with due notifications a lane
 * of its own, up to `concurrency` at once, which drains that partner's in order and ends when none is
 * left. A partner whose endpoint hangs holds its own lane only; a wake while lanes run starts lanes
 * for the other partners at once, and a partner left out by the cap gets one as soon as a lane ends.
 * `track` runs each attempt (the process's tracked work: none starts once it is draining).
 */
export function createNotificationPump(
  ctx: Pick<CheckoutContext, "db">,
  options: DeliveryOptions & {
    concurrency?: number;
    track?: (attempt: () => Promise<DeliveryResult>) => Promise<DeliveryResult> | undefined;
  } = {},
): NotificationPump {
  const concurrency = options.concurrency ?? PARTNER_CONCURRENCY;
  const sending = sendingFor(options);
  const lanes = new Map<string, Lane>();
  /** A partner was left out because every lane was taken. */
  let crowded = false;

  function startLane(partnerId: string): void {
    const lane: Lane = { stale: false, done: Promise.resolve() };
    lanes.set(partnerId, lane);
    const end = () => {
      // At once, with the last look: a wake from here on finds no lane and starts a new one.
      if (lanes.get(partnerId) === lane) lanes.delete(partnerId);
      if (crowded) {
        crowded = false;
        pump.wake();
      }
    };
    lane.done = (async () => {
      do {
        lane.stale = false;
        await drainPartner(ctx.db, partnerId, sending, new Date(), () => new Date(), options.track);
      } while (lane.stale);
      end();
    })().catch((error: unknown) => {
      end();
      logError(log, "notifications: a partner's delivery failed; the next round takes it up", error, { partnerId });
    });
  }

  const scanner = wakeable(
    async () => {
      const free = concurrency - lanes.size;
      if (free <= 0) {
        crowded = true;
        return;
      }
      const waiting = await partnersWithDueNotifications(ctx.db, new Date(), free + 1, [...lanes.keys()]);
      if (waiting.length > free) crowded = true;
      for (const partnerId of waiting.slice(0, free)) startLane(partnerId);
    },
    log,
    "notifications: looking for due notifications failed",
  );

  const pump: NotificationPump = {
    wake() {
      for (const lane of lanes.values()) lane.stale = true;
      scanner.wake();
    },
    async idle() {
      for (;;) {
        await scanner.idle();
        if (lanes.size === 0) return;
        await Promise.all([...lanes.values()].map((lane) => lane.done));
      }
    },
  };
  return pump;
}

/**
 * A partner has just saved a notification URL: what waits for it (never sent, or postponed while
 * the old URL failed) is due now, not after its backoff, and delivery is woken. Returns how many.
 */
export async function makeWaitingNotificationsDue(db: Db, partnerId: string, now = new Date()): Promise<number> {
  const rows = await db
    .update(partnerNotifications)
    .set({ nextAttemptAt: now })
    .where(and(eq(partnerNotifications.partnerId, partnerId), isNull(partnerNotifications.deliveredAt)))
    .returning({ id: partnerNotifications.id });
  if (rows.length > 0) signal(db, OUTBOX_CHANNEL);
  return rows.length;
}

/** What one delivery attempt came to: `busy` when another sender holds it (or it is delivered already). */
export type DeliveryResult = "delivered" | "failed" | "busy";

/**
 * Sends one notification now, if no sender holds it: what a resend from the back-office does right
 * away (the worker would take it up at its next round anyway).
 */
export async function deliverNotificationNow(db: Db, id: string, options: DeliveryOptions = {}): Promise<DeliveryResult> {
  return deliverOne(db, id, sendingFor(options), options.now ?? new Date());
}

async function deliverOne(db: Db, id: string, send: Sending, now: Date): Promise<DeliveryResult> {
  // Claimed first, so two instances never send the same notification at the same time.
  const [row] = await db
    .update(partnerNotifications)
    .set(work.claim(now))
    .where(and(eq(partnerNotifications.id, id), work.claimable(now)))
    .returning();
  if (!row) return "busy";
  return attemptClaimed(db, row, await partnerOf(db, row.partnerId), send, now);
}

/** One attempt at a notification this sender has claimed: sent, then its outcome written. */
async function attemptClaimed(
  db: Db,
  row: NotificationRow,
  partner: PartnerRow | undefined,
  send: Sending,
  now: Date,
): Promise<Exclude<DeliveryResult, "busy">> {
  const attemptAt = new Date();
  // A child of the work that wrote it (lib/checkout/session/outbox.ts): the checkout's trace.
  const outcome = await inSpan(
    "checkout.notification.deliver",
    {
      kind: SpanKind.CLIENT,
      parent: contextFromTraceparent(row.traceParent),
      attributes: {
        [SESSION_ID_ATTRIBUTE]: row.sessionId,
        "notification.id": row.id,
        "notification.state": row.state,
        "notification.attempt": row.attempts,
        "partner.id": row.partnerId,
      },
    },
    async (span): Promise<SendOutcome> => {
      // Stored sealed (lib/partners/secrets.ts): opened only to sign.
      const sent: SendOutcome = partner
        ? await sendSigned(partner, row.id, JSON.stringify(row.payload), { ...send, now: attemptAt })
        : { ok: false, failure: "not_configured", status: null, error: "no notification URL or signing secret" };
      if (sent.status !== null) span.setAttribute("http.response.status_code", sent.status);
      if (!sent.ok) markFailed(span, sent.failure);
      return sent;
    },
  );
  if (outcome.ok) {
    await db
      .update(partnerNotifications)
      .set({ deliveredAt: new Date(), lastStatusCode: outcome.status, lastAttemptAt: attemptAt, ...work.done() })
      .where(eq(partnerNotifications.id, row.id));
    log.info({ notificationId: row.id, partnerId: row.partnerId, attempts: row.attempts }, "partner notified");
    return "delivered";
  }
  // The reason by its kind (HTTP status, network) only: the partner's URL and answer stay out of the log.
  log.warn(
    {
      notificationId: row.id,
      partnerId: row.partnerId,
      attempts: row.attempts,
      failure: outcome.status ? `HTTP ${outcome.status}` : outcome.failure,
    },
    "partner notification failed; it will be retried",
  );
  await db
    .update(partnerNotifications)
    .set({ ...work.postpone(row.attempts, outcome.error, now), lastStatusCode: outcome.status, lastAttemptAt: attemptAt })
    .where(eq(partnerNotifications.id, row.id));
  return "failed";
}
