import "server-only";
import { randomBytes } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { durableWork } from "@/lib/db/durable-work";
import { partnerNotifications, partners } from "@/lib/db/schema";
import { openPartnerSecret } from "@/lib/partners/secrets";
import type { CheckoutContext } from "./flow";
import { getEnv, type FinancingEnvironment } from "@/lib/env";
import { loggerFor } from "@/lib/logger";
import { notificationPolicy, type DestinationPolicy } from "@/lib/security/addresses";
import { DestinationRefused, postToCheckedDestination, type Resolve } from "@/lib/security/outbound";

const log = loggerFor("notifications");

/**
 * Partner notifications: when a session's state changes, the partner's backend is told with a POST
 * in the Standard Webhooks format (`webhook-id`, `webhook-timestamp`, `webhook-signature`), from
 * the outbox written with the change, retried with backoff until it answers 2xx. Delivery is at
 * least once: the partner deduplicates on `webhook-id`. The partner's URL is held to the address
 * policy (lib/security/addresses.ts: https and public addresses in production, loopback too on the
 * sandbox), checked on the addresses it resolves to, and the connection is pinned to them.
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
/** Short: a partner's endpoint that hangs holds back its own next notification, no one else's. */
const TIMEOUT_MS = 5_000;

/** A new signing secret for a partner, in the format Standard Webhooks libraries take. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export function signNotification(secret: string, id: string, timestamp: Date, body: string): Record<string, string> {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(id, timestamp, body),
  };
}

export interface DeliveryOptions {
  now?: Date;
  /** Which destinations are allowed: production's (https, public addresses) or the sandbox's (loopback too). */
  environment?: FinancingEnvironment;
  /** Tests: a resolver of their own. */
  resolve?: Resolve;
}

/**
 * Sends every notification that is due; returns how many were delivered. Partners are served
 * concurrently, each one's notifications in order (oldest first): a partner endpoint that hangs
 * delays only its own, and for at most TIMEOUT_MS each.
 */
export async function deliverDueNotifications(ctx: CheckoutContext, options: DeliveryOptions = {}): Promise<number> {
  const now = options.now ?? new Date();
  const policy = notificationPolicy(options.environment ?? getEnv().financing.environment);
  const due = await ctx.db
    .select({ id: partnerNotifications.id, partnerId: partnerNotifications.partnerId })
    .from(partnerNotifications)
    .where(work.due(now))
    .orderBy(asc(partnerNotifications.createdAt))
    .limit(50);
  const byPartner = new Map<string, string[]>();
  for (const { id, partnerId } of due) byPartner.set(partnerId, [...(byPartner.get(partnerId) ?? []), id]);
  const counts = await Promise.all(
    [...byPartner.values()].map(async (ids) => {
      let delivered = 0;
      for (const id of ids) if (await deliverOne(ctx, id, { policy, resolve: options.resolve }, now)) delivered++;
      return delivered;
    }),
  );
  return counts.reduce((sum, count) => sum + count, 0);
}

async function deliverOne(
  ctx: CheckoutContext,
  id: string,
  send: { policy: DestinationPolicy; resolve: Resolve | undefined },
  now: Date,
): Promise<boolean> {
  // Claimed first, so two instances never send the same notification at the same time.
  const [row] = await ctx.db
    .update(partnerNotifications)
    .set(work.claim(now))
    .where(and(eq(partnerNotifications.id, id), work.claimable(now)))
    .returning();
  if (!row) return false;
  const [partner] = await ctx.db.select().from(partners).where(eq(partners.id, row.partnerId)).limit(1);

  let failure: string;
  let refused = false;
  if (!partner?.notificationUrl || !partner.signingSecret) {
    failure = "the partner has no notification URL or signing secret";
  } else {
    const body = JSON.stringify(row.payload);
    try {
      const response = await postToCheckedDestination(partner.notificationUrl, {
        headers: {
          "Content-Type": "application/json",
          // Stored sealed (lib/partners/secrets.ts): opened only to sign.
          ...signNotification(openPartnerSecret(partner, "signingSecret")!, row.id, new Date(), body),
        },
        body,
        timeoutMs: TIMEOUT_MS,
        policy: send.policy,
        resolve: send.resolve,
      });
      if (response.status >= 200 && response.status < 300) {
        await ctx.db
          .update(partnerNotifications)
          .set({ deliveredAt: new Date(), ...work.done() })
          .where(eq(partnerNotifications.id, row.id));
        log.info({ notificationId: row.id, partnerId: row.partnerId, attempts: row.attempts }, "partner notified");
        return true;
      }
      failure = `HTTP ${response.status}`;
    } catch (error) {
      refused = error instanceof DestinationRefused;
      failure = error instanceof Error ? error.message : String(error);
    }
  }
  // The reason by its kind (HTTP status, network) only: the partner's URL and answer stay out of the log.
  log.warn(
    {
      notificationId: row.id,
      partnerId: row.partnerId,
      attempts: row.attempts,
      failure: failure.startsWith("HTTP ") ? failure : refused ? "destination refused" : "no answer or not configured",
    },
    "partner notification failed; it will be retried",
  );
  await ctx.db
    .update(partnerNotifications)
    .set(work.postpone(row.attempts, failure, now))
    .where(eq(partnerNotifications.id, row.id));
  return false;
}
