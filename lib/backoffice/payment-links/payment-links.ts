import "server-only";
import { and, count, desc, eq, gt, gte, isNotNull, isNull, lt, type SQL } from "drizzle-orm";
import { readCustomerData } from "@/lib/checkout/session/customer-store";
import { checkoutUrls } from "@/lib/checkout/session/flow";
import { operationOwners } from "@/lib/checkout/session/operation-link";
import { sessionState, type CheckoutSession, type SessionState } from "@/lib/checkout/session/session-state";
import { createSession, getSession } from "@/lib/checkout/session/sessions";
import type { CreateSessionInput } from "@/lib/checkout/session/booking";
import type { Db } from "@/lib/db";
import { checkoutSessions, staffUsers } from "@/lib/db/schema";
import { formatAmount } from "@/lib/i18n/format";
import type { OperationStatus } from "@/lib/financing/contract";
import { takeTokens, type BucketRule } from "@/lib/security/limits/shared-token-bucket";
import type { Locale } from "@/lib/i18n/locales";
import { loggerFor } from "@/lib/logger";
import { mailFailure } from "@/lib/mail/failure";
import { maskEmail } from "@/lib/mail/inert-text";
import { getMailer, type Mailer } from "@/lib/mail/mailer";
import { paymentLinkEmail } from "@/lib/mail/payment-link-email";
import { recordAudit } from "@/lib/audit/audit";
import { formatDateTime } from "../common/format";
import type { StaffContext } from "@/lib/identity/staff";

/**
 * Payment links: a checkout session opened by a staff member from the back-office for a
 * customer on the phone, chat or in the shop. It is an ordinary checkout session, created by the
 * same code as the checkout sessions API's (createSession: the same schema, the same idempotency
 * per booking reference), with the partner's default return URL, and the staff member recorded
 * on it. The link is the checkout page's URL: the app's address and the session id, nothing more.
 * Everything here is scoped to the staff member's partner: another partner's link is "not found".
 */

const log = loggerFor("backoffice");

export type StaffSubject = Pick<StaffContext, "db" | "partner" | "user">;

export interface PaymentLink {
  session: CheckoutSession;
  state: SessionState;
  url: string;
  /** The staff member who opened it; null for a session the partner's backend opened. */
  creator: { id: string; name: string | null } | null;
  /** The e-mail the partner prefilled, offered as the address to send to (never logged). */
  prefilledEmail: string | undefined;
  /** Whether the customer's data has been erased (no address is offered then). */
  customerErased: boolean;
  /** Whether staff may still revoke it: a link of theirs, not expired, that the customer has not used yet. */
  revocable: boolean;
}

function who(staff: StaffSubject) {
  return { partnerId: staff.partner.id, staff: { id: staff.user.id, name: staff.user.name } };
}

export function isRevocable(session: CheckoutSession, now = new Date()): boolean {
  return (
    session.createdByStaffId !== null && session.operationId === null && session.revokedAt === null && sessionState(session, now) === "open"
  );
}

/**
 * Opens the link (or finds the one already open for this booking reference: `created` false). The
 * return URL is the partner's configured default; without one, nothing is opened.
 */
export async function createPaymentLink(
  staff: StaffSubject & { ip?: string },
  appUrl: string,
  input: CreateSessionInput,
): Promise<{ session: CheckoutSession; created: boolean; url: string }> {
  const { session, created } = await createSession(staff.db, staff.partner, input, new Date(), { createdByStaffId: staff.user.id });
  log.info({ partnerId: staff.partner.id, sessionId: session.id, created, staffUserId: staff.user.id }, "payment link opened");
  await recordAudit(staff.db, {
    kind: "payment_link_created",
    result: "ok",
    ...who(staff),
    ip: staff.ip,
    details: { sessionId: session.id, bookingReference: session.bookingReference, created },
  });
  return { session, created, url: checkoutUrls({ appUrl, webhookToken: "" }, session.id).page };
}

/** The partner's session with this id, with its creator; undefined for an unknown or another partner's one. */
export async function getPaymentLink(
  db: Db,
  partnerId: string,
  appUrl: string,
  sessionId: string,
  now = new Date(),
): Promise<PaymentLink | undefined> {
  const session = await getSession(db, sessionId);
  if (!session || session.partnerId !== partnerId) return undefined;
  const creator = session.createdByStaffId ? await staffName(db, partnerId, session.createdByStaffId) : null;
  const customer = (await readCustomerData(db, [session.id])).get(session.id);
  const email = customer?.status === "present" ? customer.draft.email : undefined;
  return {
    session,
    state: sessionState(session, now),
    url: checkoutUrls({ appUrl, webhookToken: "" }, session.id).page,
    creator,
    prefilledEmail: typeof email === "string" && email !== "" ? email : undefined,
    customerErased: customer?.status === "erased",
    revocable: isRevocable(session, now),
  };
}

async function staffName(db: Db, partnerId: string, staffUserId: string): Promise<{ id: string; name: string | null }> {
  const [row] = await db
    .select({ name: staffUsers.name })
    .from(staffUsers)
    .where(and(eq(staffUsers.id, staffUserId), eq(staffUsers.partnerId, partnerId)))
    .limit(1);
  return { id: staffUserId, name: row?.name ?? null };
}

/** The staff member who opened the session behind an operation, if one did (the operation page). */
export async function creatorOfOperation(
  db: Db,
  partnerId: string,
  operationId: string,
): Promise<{ id: string; name: string | null } | null> {
  // The session that holds the operation, or replaced it after a correction.
  const owner = (await operationOwners(db, [operationId])).find((row) => row.partnerId === partnerId);
  if (!owner) return null;
  const [row] = await db
    .select({ staffId: checkoutSessions.createdByStaffId })
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.partnerId, partnerId), eq(checkoutSessions.id, owner.sessionId)))
    .limit(1);
  return row?.staffId ? staffName(db, partnerId, row.staffId) : null;
}

export type RevokeResult = { ok: true } | { ok: false; reason: "not_found" | "not_revocable" };

/**
 * Revokes a link: the session expires now, so the checkout shows it as revoked and refuses the
 * customer's data. Only while the customer has not sent it (no operation at the partner API yet):
 * the update itself says so, so a customer submitting at that moment and a revocation cannot both
 * win. After that, the operation exists and is cancelled from its page, as any other.
 */
export async function revokePaymentLink(staff: StaffSubject & { ip?: string }, sessionId: string, now = new Date()): Promise<RevokeResult> {
  const session = await getSession(staff.db, sessionId);
  if (!session || session.partnerId !== staff.partner.id) return { ok: false, reason: "not_found" };
  const revoked = await staff.db
    .update(checkoutSessions)
    .set({ expiresAt: now, revokedAt: now, updatedAt: now })
    .where(
      and(
        eq(checkoutSessions.id, session.id),
        eq(checkoutSessions.partnerId, staff.partner.id),
        isNotNull(checkoutSessions.createdByStaffId),
        isNull(checkoutSessions.operationId),
        isNull(checkoutSessions.revokedAt),
        gt(checkoutSessions.expiresAt, now),
      ),
    )
    .returning({ id: checkoutSessions.id });
  const ok = revoked.length > 0;
  await recordAudit(
    staff.db,
    {
      kind: "payment_link_revoked",
      result: ok ? "ok" : "refused",
      ...who(staff),
      ip: staff.ip,
      details: { sessionId: session.id, bookingReference: session.bookingReference },
    },
    now,
  );
  log.info({ partnerId: staff.partner.id, sessionId: session.id, revoked: ok }, "payment link revocation");
  return ok ? { ok: true } : { ok: false, reason: "not_revocable" };
}

export type SendResult =
  { ok: true } | { ok: false; reason: "not_found" | "not_configured" | "not_open" | "failed" | "needs_confirmation" | "rate_limited" };

/**
 * How many e-mails go out, shared by every instance (token buckets in the database): per link (a
 * customer is not flooded), per staff member and per partner (the service's sender is no relay).
 */
export const SEND_LIMITS = {
  perLink: { capacity: 3, perHour: 1 },
  perStaff: { capacity: 20, perHour: 20 },
  perPartner: { capacity: 100, perHour: 100 },
} as const satisfies Record<string, BucketRule>;

function sameAddress(a: string, b: string | undefined): boolean {
  return b !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();
}

/**
 * E-mails the link in the customer's language: the trip, the amount, the link, its expiry and the
 * agency's name (paymentLinkEmail takes nothing else). To the address the booking was prefilled
 * with; another only once staff confirm it (`confirmed`). Within SEND_LIMITS. Audited with the
 * recipient masked (`a***@example.com`); the address itself is neither logged nor stored.
 */
export async function sendPaymentLink(
  staff: StaffSubject & { ip?: string },
  appUrl: string,
  input: { sessionId: string; to: string; locale: Locale; confirmed?: boolean },
  mailer: Mailer | undefined = getMailer(),
  now = new Date(),
): Promise<SendResult> {
  const link = await getPaymentLink(staff.db, staff.partner.id, appUrl, input.sessionId);
  if (!link) return { ok: false, reason: "not_found" };
  if (!mailer) return { ok: false, reason: "not_configured" };
  if (link.state !== "open") return { ok: false, reason: "not_open" };
  const { session } = link;
  const prefilled = sameAddress(input.to, link.prefilledEmail);
  const audit = { kind: "payment_link_sent" as const, ...who(staff), ip: staff.ip };
  const details = { sessionId: session.id, bookingReference: session.bookingReference, to: maskEmail(input.to), prefilled };
  if (!prefilled && !input.confirmed) return { ok: false, reason: "needs_confirmation" };
  const allowed = await takeTokens(
    staff.db,
    [
      { key: `link-mail:link:${session.id}`, rule: SEND_LIMITS.perLink },
      { key: `link-mail:staff:${staff.user.id}`, rule: SEND_LIMITS.perStaff },
      { key: `link-mail:partner:${staff.partner.id}`, rule: SEND_LIMITS.perPartner },
    ],
    now,
  );
  if (!allowed) {
    log.warn(
      { partnerId: staff.partner.id, sessionId: session.id, staffUserId: staff.user.id },
      "payment link e-mail refused: limit reached",
    );
    await recordAudit(staff.db, { ...audit, result: "refused", details: { ...details, reason: "rate_limited" } }, now);
    return { ok: false, reason: "rate_limited" };
  }
  const content = paymentLinkEmail({
    locale: input.locale,
    partnerName: staff.partner.name,
    packageName: session.booking.packageName,
    amount: formatAmount(
      { cents: Math.round(session.booking.totalPrice.amount * 100), currency: session.booking.totalPrice.currency },
      input.locale,
    ),
    link: link.url,
    expiresAt: formatDateTime(session.expiresAt, input.locale),
  });
  try {
    const { messageId } = await mailer.send({ ...content, to: input.to.trim(), fromName: staff.partner.name });
    log.info({ partnerId: staff.partner.id, sessionId: session.id, locale: input.locale, messageId }, "payment link e-mailed");
    await recordAudit(staff.db, { ...audit, result: "ok", details: { ...details, locale: input.locale } }, now);
    return { ok: true };
  } catch (error) {
    // Codes only (mailFailure): the error's message quotes the server's reply, which names the recipient.
    log.error({ sessionId: session.id, ...mailFailure(error) }, "backoffice: a payment link e-mail was not sent");
    await recordAudit(staff.db, { ...audit, result: "failed", details }, now);
    return { ok: false, reason: "failed" };
  }
}

export interface ListedLink {
  session: CheckoutSession;
  state: SessionState;
  creatorName: string | null;
}

/**
 * The partner's payment links (sessions a staff member opened), newest first, a page at a time
 * (from 1): the operations list's "created by staff" view, with its filters (the operation's last
 * known status, and the day the link was created, yyyy-MM-dd, UTC).
 */
export async function listPaymentLinks(
  db: Db,
  partnerId: string,
  page: { page: number; size: number; status?: OperationStatus; from?: string; to?: string },
  now = new Date(),
): Promise<{ links: ListedLink[]; total: number }> {
  const conditions: SQL[] = [eq(checkoutSessions.partnerId, partnerId), isNotNull(checkoutSessions.createdByStaffId)];
  if (page.status) conditions.push(eq(checkoutSessions.operationStatus, page.status));
  if (page.from) conditions.push(gte(checkoutSessions.createdAt, new Date(`${page.from}T00:00:00Z`)));
  if (page.to) conditions.push(lt(checkoutSessions.createdAt, new Date(new Date(`${page.to}T00:00:00Z`).getTime() + 24 * 60 * 60 * 1000)));
  const where = and(...conditions);
  const [rows, [totals]] = await Promise.all([
    db
      .select({ session: checkoutSessions, creatorName: staffUsers.name })
      .from(checkoutSessions)
      .leftJoin(staffUsers, and(eq(staffUsers.id, checkoutSessions.createdByStaffId), eq(staffUsers.partnerId, partnerId)))
      .where(where)
      .orderBy(desc(checkoutSessions.createdAt), desc(checkoutSessions.id))
      .limit(page.size)
      .offset((page.page - 1) * page.size),
    db.select({ total: count() }).from(checkoutSessions).where(where),
  ]);
  return {
    links: rows.map((row) => ({ session: row.session, state: sessionState(row.session, now), creatorName: row.creatorName })),
    total: totals?.total ?? 0,
  };
}
