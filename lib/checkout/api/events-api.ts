import "server-only";
import { and, asc, eq, gt } from "drizzle-orm";
import { AppError } from "@/lib/app-error";
import { getAppContext } from "@/lib/app-context";
import type { Db } from "@/lib/db";
import { partnerNotifications, type PartnerRow } from "@/lib/db/schema";
import { EVENTS_PAGE_DEFAULT, EVENTS_PAGE_MAX, eventsQuerySchema, type CheckoutEventResource, type EventListResource } from "./api-schemas";
import { authenticatePartner, sessionsApiThrottles, readBudget, type SessionsApiThrottles } from "./sessions-api";
import type { CheckoutContext } from "../session/flow";

/**
 * The partner's event feed (`GET /api/events`): every notification written for the partner's
 * sessions, delivered or not (no notification URL, an endpoint that was down), in the order they
 * were written (`partner_notifications.seq`, lib/checkout/session/outbox.ts), each with the body
 * that is signed and sent and what came of sending it. A partner that missed notifications catches
 * up from the last cursor it processed; nothing here changes their delivery.
 */

export interface EventsQuery {
  after: number;
  /** The cursor as sent, to hand back when no event follows it. */
  afterText: string | undefined;
  limit: number;
}

const AFTER_PROBLEM = "must be a cursor you were given: a whole number written in digits";
const LIMIT_PROBLEM = `must be a whole number from 1 to ${EVENTS_PAGE_MAX}`;

/** The query as the feed reads it, or a 400 naming every bad parameter (each may be given once). */
export function parseEventsQuery(params: URLSearchParams): EventsQuery {
  const fields: { field: string; message: string }[] = [];
  const one = (name: "after" | "limit", problem: string): string | undefined => {
    const values = params.getAll(name);
    if (values.length > 1) {
      fields.push({ field: name, message: "must be given once" });
      return undefined;
    }
    const value = values[0];
    if (value === undefined) return undefined;
    if (!eventsQuerySchema.shape[name].safeParse(value).success) {
      fields.push({ field: name, message: problem });
      return undefined;
    }
    return value;
  };
  const afterText = one("after", AFTER_PROBLEM);
  const limitText = one("limit", LIMIT_PROBLEM);
  const after = afterText === undefined ? 0 : Number(afterText);
  if (!Number.isSafeInteger(after)) fields.push({ field: "after", message: AFTER_PROBLEM });
  const limit = limitText === undefined ? EVENTS_PAGE_DEFAULT : Number(limitText);
  if (limit < 1 || limit > EVENTS_PAGE_MAX) fields.push({ field: "limit", message: LIMIT_PROBLEM });
  if (fields.length > 0) {
    throw new AppError("validation_failed", `Invalid query: ${fields.map((f) => `${f.field} ${f.message}`).join("; ")}`, { fields });
  }
  return { after, afterText, limit };
}

type NotificationRow = typeof partnerNotifications.$inferSelect;
type Delivery = CheckoutEventResource["delivery"];

/** Whether the partner's notifications can be sent at all: a URL to send them to, and a secret to sign them. */
export function notificationsConfigured(partner: Pick<PartnerRow, "notificationUrl" | "signingSecret">): boolean {
  return partner.notificationUrl !== null && partner.signingSecret !== null;
}

/** What came of sending one notification, as the feed says it (see the document's CheckoutEventDelivery). */
export function deliveryOf(
  row: Pick<NotificationRow, "attempts" | "lastAttemptAt" | "lastStatusCode" | "lastError" | "nextAttemptAt" | "deliveredAt">,
  configured: boolean,
): Delivery {
  const status: Delivery["status"] = row.deliveredAt
    ? "delivered"
    : !configured
      ? "not_configured"
      : row.attempts === 0
        ? "pending"
        : "retrying";
  return {
    status,
    attempts: row.attempts,
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError === null ? null : row.lastError.slice(0, 300),
    nextAttemptAt: status === "pending" || status === "retrying" ? row.nextAttemptAt.toISOString() : null,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
  };
}

/** A page of the partner's events after the cursor, oldest first. */
export async function partnerEvents(
  db: Db,
  partner: Pick<PartnerRow, "id" | "notificationUrl" | "signingSecret">,
  query: EventsQuery,
): Promise<EventListResource> {
  const rows = await db
    .select()
    .from(partnerNotifications)
    .where(and(eq(partnerNotifications.partnerId, partner.id), gt(partnerNotifications.seq, query.after)))
    .orderBy(asc(partnerNotifications.seq))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const configured = notificationsConfigured(partner);
  const events = page.map((row): CheckoutEventResource => ({
    id: row.id,
    cursor: String(row.seq),
    type: row.payload.type,
    timestamp: row.payload.timestamp,
    data: row.payload.data,
    delivery: deliveryOf(row, configured),
  }));
  return { events, nextCursor: events.at(-1)?.cursor ?? query.afterText ?? null, hasMore: rows.length > query.limit };
}

export async function handleListEvents(
  request: Request,
  throttles: SessionsApiThrottles = sessionsApiThrottles(),
  context: () => Promise<CheckoutContext> = getAppContext,
): Promise<EventListResource> {
  const ctx = await context();
  const partner = await authenticatePartner(ctx, request, "sessions:read", throttles, readBudget(throttles));
  return partnerEvents(ctx.db, partner, parseEventsQuery(new URL(request.url).searchParams));
}
