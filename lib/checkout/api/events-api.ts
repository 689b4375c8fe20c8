import "server-only";
import { and, asc, desc, eq, gt, lte, sql } from "drizzle-orm";
import { AppError } from "@/lib/app-error";
import { getAppContext } from "@/lib/app-context";
import { getEnv } from "@/lib/config/env";
import type { Db } from "@/lib/db";
import { partnerEventCounters, partnerNotifications, type PartnerRow } from "@/lib/db/schema";
import { openToken, signToken } from "@/lib/security/secrets/signed-token";
import {
  EVENTS_PAGE_DEFAULT,
  LEGACY_EVENT_CURSOR,
  eventsQuerySchema,
  type CheckoutEventResource,
  type EventListResource,
} from "./api-schemas";
import { authenticatePartner, sessionsApiThrottles, readBudget, type SessionsApiThrottles } from "./sessions-api";
import type { CursorScope } from "./session-list";
import type { CheckoutContext } from "../session/flow";

/**
 * The partner's event feed (`GET /api/events`): every notification written for the partner's
 * sessions, delivered or not (no notification URL, an endpoint that was down), in the order they
 * were written: the partner's own positions 1, 2, 3… (`partner_notifications.partner_seq`, taken
 * under the partner's counter: lib/checkout/session/outbox.ts), each with the body that is signed
 * and sent and what came of sending it. A partner that missed notifications catches up from the
 * last cursor it processed; nothing here changes their delivery.
 *
 * A cursor is a position signed for the partner it was given to (lib/security/secrets/signed-token.ts):
 * altered in any way, or sent by another partner, it is a 400 naming `after`, never a query. A
 * decimal number is a cursor of the feed's earlier form (one sequence for the whole deployment,
 * `partner_notifications.seq`), which backends may still hold: it resumes after the partner's last
 * event numbered up to it (among those written before positions, positionOfLegacySeq), and the
 * answer's cursors are the current form.
 */

const CURSOR_PURPOSE = "events feed cursor";

/** Where a page starts: after a position of the partner's own, or after a number of the earlier, deployment-wide sequence. */
export type FeedStart = { position: number } | { legacySeq: number };

export interface EventsQuery {
  /** Undefined: from the oldest event kept. */
  after: FeedStart | undefined;
  limit: number;
}

const AFTER_PROBLEM = "must be a cursor this feed gave you";

/** The partner's position, as the cursor it is handed out as. */
export function encodeEventCursor(position: number, scope: CursorScope): string {
  return signToken(scope.keyring, CURSOR_PURPOSE, Buffer.from(JSON.stringify([position])).toString("base64url"), scope.partnerId);
}

/** The position a cursor signed for this partner stands for; undefined for anything else. */
export function decodeEventCursor(cursor: string, scope: CursorScope): number | undefined {
  const payload = openToken(scope.keyring, CURSOR_PURPOSE, cursor, scope.partnerId);
  if (payload === undefined) return undefined;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  const position = Array.isArray(decoded) && decoded.length === 1 ? (decoded[0] as unknown) : undefined;
  return typeof position === "number" && Number.isSafeInteger(position) && position >= 0 ? position : undefined;
}

/** Where `after` starts the page; undefined when it is no cursor of this partner's feed. */
function feedStart(after: string, scope: CursorScope): FeedStart | undefined {
  if (LEGACY_EVENT_CURSOR.test(after)) {
    const legacySeq = Number(after);
    if (legacySeq === 0) return { position: 0 };
    return Number.isSafeInteger(legacySeq) ? { legacySeq } : undefined;
  }
  const position = decodeEventCursor(after, scope);
  return position === undefined ? undefined : { position };
}

/** The query as the feed reads it, for the partner it was sent by, or a 400 naming every bad parameter (each may be given once). */
export function parseEventsQuery(params: URLSearchParams, scope: CursorScope): EventsQuery {
  const fields: { field: string; message: string }[] = [];
  const one = (name: "after" | "limit"): string | undefined => {
    const values = params.getAll(name);
    if (values.length > 1) fields.push({ field: name, message: "must be given once" });
    return values.length === 1 ? values[0] : undefined;
  };
  const afterText = one("after");
  const limitText = one("limit");
  let after: FeedStart | undefined;
  if (afterText !== undefined) {
    after = eventsQuerySchema.shape.after.safeParse(afterText).success ? feedStart(afterText, scope) : undefined;
    if (after === undefined) fields.push({ field: "after", message: AFTER_PROBLEM });
  }
  let limit: number = EVENTS_PAGE_DEFAULT;
  if (limitText !== undefined) {
    const parsed = eventsQuerySchema.shape.limit.safeParse(limitText);
    if (parsed.success) limit = parsed.data ?? EVENTS_PAGE_DEFAULT;
    else fields.push({ field: "limit", message: parsed.error.issues[0]!.message });
  }
  if (fields.length > 0) {
    throw new AppError("validation_failed", `Invalid query: ${fields.map((f) => `${f.field} ${f.message}`).join("; ")}`, { fields });
  }
  return { after, limit };
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

/**
 * The partner's position a number of the earlier, deployment-wide sequence stands for: its last
 * event numbered up to it (0: none), so the page starts at its first event numbered above it.
 * Within one partner both numbers grow together (each taken under the partner's counter). Read no
 * further than the last number the partner was handed as a cursor (`legacy_last_seq`): a larger
 * one is the partner's last event of that form, so probing with numbers tells it nothing of the
 * sequence since, which counts other partners' events.
 */
async function positionOfLegacySeq(db: Db, partnerId: string, legacySeq: number): Promise<number> {
  const n = partnerNotifications;
  const c = partnerEventCounters;
  const [last] = await db
    .select({ position: n.partnerSeq })
    .from(n)
    .innerJoin(c, eq(c.partnerId, n.partnerId))
    .where(and(eq(n.partnerId, partnerId), lte(n.seq, sql`least(${legacySeq}::bigint, ${c.legacyLastSeq})`)))
    .orderBy(desc(n.seq))
    .limit(1);
  return last?.position ?? 0;
}

/** A page of the partner's events after the cursor, oldest first. */
export async function partnerEvents(
  db: Db,
  partner: Pick<PartnerRow, "id" | "notificationUrl" | "signingSecret">,
  query: EventsQuery,
  keyring = getEnv().SECRETS_KEYS,
): Promise<EventListResource> {
  const scope = { partnerId: partner.id, keyring };
  const after =
    query.after === undefined
      ? 0
      : "position" in query.after
        ? query.after.position
        : await positionOfLegacySeq(db, partner.id, query.after.legacySeq);
  const rows = await db
    .select()
    .from(partnerNotifications)
    .where(and(eq(partnerNotifications.partnerId, partner.id), gt(partnerNotifications.partnerSeq, after)))
    .orderBy(asc(partnerNotifications.partnerSeq))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const configured = notificationsConfigured(partner);
  const events = page.map((row): CheckoutEventResource => ({
    id: row.id,
    cursor: encodeEventCursor(row.partnerSeq, scope),
    type: row.payload.type,
    timestamp: row.payload.timestamp,
    data: row.payload.data,
    delivery: deliveryOf(row, configured),
  }));
  const start = query.after === undefined ? null : encodeEventCursor(after, scope);
  return { events, nextCursor: events.at(-1)?.cursor ?? start, hasMore: rows.length > query.limit };
}

export async function handleListEvents(
  request: Request,
  throttles: SessionsApiThrottles = sessionsApiThrottles(),
  context: () => Promise<CheckoutContext> = getAppContext,
): Promise<EventListResource> {
  const ctx = await context();
  const partner = await authenticatePartner(ctx, request, "sessions:read", throttles, readBudget(throttles));
  const keyring = getEnv().SECRETS_KEYS;
  return partnerEvents(ctx.db, partner, parseEventsQuery(new URL(request.url).searchParams, { partnerId: partner.id, keyring }), keyring);
}
