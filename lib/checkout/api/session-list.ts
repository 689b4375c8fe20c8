import "server-only";
import { createHash } from "node:crypto";
import { and, desc, eq, or, sql, type SQL } from "drizzle-orm";
import { AppError } from "@/lib/app-error";
import { getAppContext } from "@/lib/app-context";
import { getEnv } from "@/lib/config/env";
import type { Keyring } from "@/lib/config/keyring";
import { openToken, signToken } from "@/lib/security/secrets/signed-token";
import type { Db } from "@/lib/db";
import { checkoutSessions, type CheckoutSessionRow } from "@/lib/db/schema";
import { CHECKOUT_SESSION_ID } from "@/lib/http/checkout-session-id";
import type { CheckoutContext } from "../session/flow";
import type { SessionState } from "../session/session-state";
import { sessionStateCondition } from "../session/sessions";
import { LIST_LIMIT, listSessionsQuerySchema, type CheckoutSessionList, type ListSessionsQuery } from "./api-schemas";
import { authenticatePartner, sessionResource, sessionsApiThrottles, readBudget, type SessionsApiThrottles } from "./sessions-api";
import { customerDataErasedAt } from "../session/customer-store";
import { fieldErrorsOf, parseForApi } from "./validation";

/**
 * `GET /api/checkout-sessions`: a partner's own sessions, newest first, filtered, a page at a time.
 *
 * Keyset pagination: a page ends at its last session's (createdAt, id), and the next page starts
 * after it (`(created_at, id) < (…)`, on the index of the partner's sessions by creation). Sessions
 * opened meanwhile are newer than the first page, so they never push a session into the next page
 * twice, or out of it: a walk through the pages neither repeats nor skips one. The cursor carries
 * the creation instant to the microsecond as the database holds it (a JavaScript Date, to the
 * millisecond, would put a session of the same millisecond on both sides), and a fingerprint of
 * the filters it was made with: sent with other filters, it is refused rather than answering a page
 * of another list. It is signed (lib/security/secrets/signed-token.ts) for the partner it was given
 * to: altered in any way, or sent by another partner, it is a 400 naming `cursor`, never a query.
 */

const CURSOR_PURPOSE = "checkout-sessions list cursor";

const QUERY_FIELDS = Object.keys(listSessionsQuerySchema.shape) as (keyof ListSessionsQuery)[];

/** The query as sent, checked: a 400 `validation_failed` naming every bad parameter at once. */
export function parseListQuery(url: URL): ListSessionsQuery {
  const fields: { field: string; message: string }[] = [];
  const raw: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    if (!(QUERY_FIELDS as string[]).includes(name)) {
      if (!fields.some((f) => f.field === name)) {
        fields.push({ field: name.slice(0, 100), message: `is not a parameter of this list (${QUERY_FIELDS.join(", ")})` });
      }
    } else if (name in raw) {
      if (!fields.some((f) => f.field === name)) fields.push({ field: name, message: "must be given once" });
    } else {
      raw[name] = value;
    }
  }
  const parsed = parseForApi(listSessionsQuerySchema, raw);
  if (!parsed.success) {
    for (const error of fieldErrorsOf(parsed.error.issues, "(query)")) {
      if (!fields.some((f) => f.field === error.field)) fields.push(error);
    }
  }
  if (parsed.success) {
    for (const [from, to] of [
      ["createdFrom", "createdTo"],
      ["updatedFrom", "updatedTo"],
    ] as const) {
      const start = parsed.data[from];
      const end = parsed.data[to];
      if (start && end && Date.parse(end) <= Date.parse(start)) fields.push({ field: to, message: `must be after ${from}` });
    }
  }
  if (fields.length > 0 || !parsed.success) {
    throw new AppError("validation_failed", `Invalid list query: ${fields.map((f) => `${f.field} ${f.message}`).join("; ")}`, {
      fields,
    });
  }
  return parsed.data;
}

/** Where a page ended: the last session's creation, to the microsecond as stored, and its id. */
interface Position {
  createdAt: string;
  id: string;
}

/** The creation instant as the database holds it, in UTC to the microsecond (always this shape). */
const STORED_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** The filters a cursor belongs to: everything but the page's size and place. */
function filtersFingerprint(query: ListSessionsQuery): string {
  const { limit: _limit, cursor: _cursor, ...filters } = query;
  const canonical = QUERY_FIELDS.map((name) => [name, (filters as Record<string, string | undefined>)[name] ?? null]);
  return createHash("sha256").update(JSON.stringify(canonical)).digest("base64url").slice(0, 12);
}

/** Who a cursor is for and what signs it. */
export interface CursorScope {
  partnerId: string;
  keyring: Keyring;
}

export function encodeCursor(position: Position, query: ListSessionsQuery, scope: CursorScope): string {
  const payload = Buffer.from(JSON.stringify([position.createdAt, position.id, filtersFingerprint(query)])).toString("base64url");
  return signToken(scope.keyring, CURSOR_PURPOSE, payload, scope.partnerId);
}

/** Whether a stored-shape instant is a real one (not 2026-13-45), read back the same. */
function isRealInstant(text: string): boolean {
  const millis = Date.parse(text);
  return Number.isFinite(millis) && new Date(millis).toISOString().slice(0, 23) === text.slice(0, 23);
}

function badCursor(message: string): AppError {
  return new AppError("validation_failed", `Invalid list query: cursor ${message}`, { fields: [{ field: "cursor", message }] });
}

export function decodeCursor(cursor: string, query: ListSessionsQuery, scope: CursorScope): Position {
  const payload = openToken(scope.keyring, CURSOR_PURPOSE, cursor, scope.partnerId);
  if (payload === undefined) throw badCursor("is not a cursor of this list");
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    throw badCursor("is not a cursor of this list");
  }
  if (
    !Array.isArray(decoded) ||
    decoded.length !== 3 ||
    typeof decoded[0] !== "string" ||
    !STORED_INSTANT.test(decoded[0]) ||
    !isRealInstant(decoded[0]) ||
    typeof decoded[1] !== "string" ||
    !CHECKOUT_SESSION_ID.test(decoded[1])
  ) {
    throw badCursor("is not a cursor of this list");
  }
  if (decoded[2] !== filtersFingerprint(query)) throw badCursor("was made for other filters: send the same filters with it");
  return { createdAt: decoded[0], id: decoded[1] };
}

const createdAtText = sql<string>`to_char(${checkoutSessions.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** A page of the partner's sessions for `query` (checked by parseListQuery), with where the next one starts. */
export async function listPartnerSessions(
  db: Db,
  partnerId: string,
  query: ListSessionsQuery,
  now = new Date(),
  keyring: Keyring = getEnv().SECRETS_KEYS,
): Promise<{ sessions: CheckoutSessionRow[]; hasMore: boolean; nextCursor: string | null }> {
  const scope = { partnerId, keyring };
  const s = checkoutSessions;
  const where: SQL[] = [eq(s.partnerId, partnerId)];
  if (query.state) {
    const states = [...new Set(query.state.split(","))] as SessionState[];
    where.push(or(...states.map((state) => sessionStateCondition(state, now)))!);
  }
  // As sent (PostgreSQL reads ISO 8601 with its offset), to the microsecond a Date would cut.
  const instant = (value: string) => sql`${value}::timestamptz`;
  if (query.createdFrom) where.push(sql`${s.createdAt} >= ${instant(query.createdFrom)}`);
  if (query.createdTo) where.push(sql`${s.createdAt} < ${instant(query.createdTo)}`);
  if (query.updatedFrom) where.push(sql`${s.updatedAt} >= ${instant(query.updatedFrom)}`);
  if (query.updatedTo) where.push(sql`${s.updatedAt} < ${instant(query.updatedTo)}`);
  if (query.bookingReference) where.push(eq(s.bookingReference, query.bookingReference));
  if (query.cursor) {
    const after = decodeCursor(query.cursor, query, scope);
    where.push(sql`(${s.createdAt}, ${s.id}) < (${after.createdAt}::timestamptz, ${after.id})`);
  }
  const limit = query.limit ?? LIST_LIMIT.default;
  const rows = await db
    .select({ session: s, createdAtText })
    .from(s)
    .where(and(...where))
    .orderBy(desc(s.createdAt), desc(s.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const hasMore = rows.length > limit;
  return {
    sessions: page.map((row) => row.session),
    hasMore,
    nextCursor: hasMore && last ? encodeCursor({ createdAt: last.createdAtText, id: last.session.id }, query, scope) : null,
  };
}

/** GET /api/checkout-sessions: the partner's sessions (the read budget). */
export async function handleListSessions(
  request: Request,
  throttles: SessionsApiThrottles = sessionsApiThrottles(),
  context: () => Promise<CheckoutContext> = getAppContext,
): Promise<CheckoutSessionList> {
  const ctx = await context();
  const partner = await authenticatePartner(ctx, request, "sessions:read", throttles, readBudget(throttles));
  const query = parseListQuery(new URL(request.url));
  const page = await listPartnerSessions(ctx.db, partner.id, query);
  const erased = await customerDataErasedAt(
    ctx.db,
    page.sessions.map((session) => session.id),
  );
  const data = page.sessions.map((session) => sessionResource(ctx, session, erased.get(session.id) ?? null));
  return { data, hasMore: page.hasMore, nextCursor: page.nextCursor };
}
