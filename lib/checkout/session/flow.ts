import "server-only";
import { AppError } from "@/lib/app-error";
import type { Db } from "@/lib/db";
import type { FinancingClient } from "@/lib/financing/client";
import { isFinancingApiError } from "@/lib/financing/errors";
import type { FinancialOffer, StartFinancingResult } from "@/lib/financing/types";
import { cachedPartnerById } from "@/lib/partners/cache";
import { isPartnerDisabled, type Partner } from "@/lib/partners/partners";
import { operationExternalId } from "./booking";
import { sortOffers } from "@/lib/financing/offers";
import { isFinal, isNewerStatus, sessionState, type CheckoutSession, type SessionState, type StatusSource } from "./session-state";
import { requireSession } from "./sessions";
import { claimFinancingStart, markNotEligible, recordStatus, updateSession, type StatusReport } from "./session-status";
import { logError, loggerFor } from "@/lib/logger";
import { trackWork } from "@/lib/ops/lifecycle";
import type { ReuseWindow } from "@/lib/ops/shared-probe";

const log = loggerFor("checkout");

/**
 * The advanced flow (docs/contributors/architecture.md, "The checkout as data moves"), step by step;
 * step 2, the customer's data and the operation, is submit.ts. Pages and route handlers call these; each reads
 * the session from the database and the truth from the partner API, never from the browser.
 */

/** What the checkout needs of the app's context (lib/app-context.ts); tests build their own. */
export interface CheckoutContext {
  db: Db;
  /** The partner API client acting for this partner's credential. */
  clientFor(partner: Partner): FinancingClient;
  appUrl: string;
  webhookToken: string;
  today(): string;
  /**
   * Where set (the app's), status reads that anyone with the link can trigger (polls, returns)
   * reuse a read of the same session made within a few seconds (lib/ops/shared-probe.ts).
   */
  statusReuse?: ReuseWindow;
}

/** The session itself when the caller has just read it (a page), else read by its id. */
async function sessionFrom(ctx: CheckoutContext, sessionOrId: string | CheckoutSession): Promise<CheckoutSession> {
  return typeof sessionOrId === "string" ? requireSession(ctx.db, sessionOrId) : sessionOrId;
}

/** The session's partner, from the short-lived partner cache (lib/partners/cache.ts). */
export async function partnerOf(ctx: CheckoutContext, session: CheckoutSession): Promise<Partner> {
  const partner = await cachedPartnerById(ctx.db, session.partnerId);
  if (!partner) throw new AppError("internal", "The session's partner is missing");
  return partner;
}

/**
 * Whether an operator disabled the session's partner: its checkout then goes no further (no
 * operation created, no plan requested, nobody sent to the provider), and its pages say the agency
 * is unavailable (app/checkout/[sessionId]/unavailable).
 */
export async function agencyUnavailable(ctx: CheckoutContext, session: CheckoutSession): Promise<boolean> {
  return isPartnerDisabled(await partnerOf(ctx, session));
}

export function checkoutUrls(ctx: Pick<CheckoutContext, "appUrl" | "webhookToken">, sessionId: string) {
  return {
    page: `${ctx.appUrl}/checkout/${sessionId}`,
    success: `${ctx.appUrl}/checkout/${sessionId}/return/success`,
    error: `${ctx.appUrl}/checkout/${sessionId}/return/error`,
    webhook: `${ctx.appUrl}/api/webhooks/financing/${ctx.webhookToken}`,
  };
}

// ---------------------------------------------------------------------------------------------
// Step 3: offers

export type OffersView =
  { kind: "offers"; offers: FinancialOffer[] } | { kind: "not_eligible" } | { kind: "none" } | { kind: "unavailable" };

/**
 * Whether the offers page shows this session's plans: the operation exists and the customer is
 * choosing. Otherwise the page sends the customer to the form (no operation yet) or to the status.
 */
export function showsOffers(session: CheckoutSession): boolean {
  return session.operationId !== null && sessionState(session) === "choosing";
}

/**
 * The operation's offers. When the partner API says it can never be financed (not eligible, or
 * not one offer), the session ends there: `not_eligible`, final, and the partner is told
 * (markNotEligible), rather than waiting `choosing` until it expires.
 *
 * @param known the session's partner when the caller has already read it (the page has): one read less.
 */
export async function loadOffers(ctx: CheckoutContext, session: CheckoutSession, known?: Partner): Promise<OffersView> {
  if (!session.operationId) throw new AppError("conflict", "The customer's data has not been sent yet");
  const partner = known?.id === session.partnerId ? known : await partnerOf(ctx, session);
  let view: OffersView;
  try {
    const { offers } = await ctx.clientFor(partner).getOffers(session.operationId);
    view = offers.length === 0 ? { kind: "none" } : { kind: "offers", offers: sortOffers(offers) };
  } catch (error) {
    if (!isFinancingApiError(error, "NOT_ELIGIBLE_FOR_FINANCING")) {
      logError(log, "checkout: loading offers failed", error, { sessionId: session.id });
      return { kind: "unavailable" };
    }
    view = { kind: "not_eligible" };
  }
  if (view.kind !== "offers") await endNotEligible(ctx, session, view.kind);
  return view;
}

async function endNotEligible(ctx: CheckoutContext, session: CheckoutSession, reason: "not_eligible" | "none"): Promise<void> {
  if (await markNotEligible(ctx.db, { sessionId: session.id, operationId: session.operationId! })) {
    log.info({ sessionId: session.id, reason }, "checkout: the operation cannot be financed; the session ends not_eligible");
  }
}

// ---------------------------------------------------------------------------------------------
// Step 4: choosing

export type ChooseResult =
  | { kind: "redirect"; url: string }
  | { kind: "refused"; hasAlternatives: boolean }
  | { kind: "error"; hasAlternatives: boolean }
  | { kind: "offer_gone" }
  | { kind: "in_progress" }
  | { kind: "unavailable" }
  | { kind: "agency_unavailable" };

/**
 * Starts financing with the chosen offer. The offer id from the form is only a choice: the offer
 * is looked up again at the partner API. One start at a time per session (a database claim), so a
 * double submit never sends POST /financing twice; the repeat is sent to the same paymentUrl.
 */
export async function chooseOffer(ctx: CheckoutContext, sessionId: string, offerId: number): Promise<ChooseResult> {
  const session = await requireSession(ctx.db, sessionId);
  if (await agencyUnavailable(ctx, session)) return { kind: "agency_unavailable" };
  if (!session.operationId) throw new AppError("conflict", "The customer's data has not been sent yet");
  const state = sessionState(session);
  // A repeat (double submit, back button) while at the provider goes back to the same checkout.
  if (state === "pending" && session.financingStatus === "REQUESTED" && session.paymentUrl)
    return { kind: "redirect", url: session.paymentUrl };
  if (state !== "choosing") return { kind: "redirect", url: `/checkout/${session.id}/status` };

  const partner = await partnerOf(ctx, session);
  const client = ctx.clientFor(partner);
  let offer: FinancialOffer | undefined;
  try {
    const { offers } = await client.getOffers(session.operationId);
    if (offers.length === 0) {
      await endNotEligible(ctx, session, "none");
      return { kind: "redirect", url: `/checkout/${session.id}/status` };
    }
    offer = offers.find((o) => o.id === offerId);
  } catch (error) {
    if (isFinancingApiError(error, "NOT_ELIGIBLE_FOR_FINANCING")) {
      await endNotEligible(ctx, session, "not_eligible");
      return { kind: "redirect", url: `/checkout/${session.id}/status` };
    }
    return { kind: "unavailable" };
  }
  if (!offer) return { kind: "offer_gone" };

  if (!(await claimFinancingStart(ctx.db, session.id, offer))) {
    const again = await requireSession(ctx.db, sessionId);
    return again.paymentUrl ? { kind: "redirect", url: again.paymentUrl } : { kind: "in_progress" };
  }

  let result: StartFinancingResult;
  try {
    result = await client.startFinancing(session.operationId, offer.id);
  } catch (error) {
    // Not retried (a repeat could start a second request at a provider): the customer can choose
    // again. A NOT_ACTIVE_OPERATION means it moved on; the status page tells where.
    await updateSession(ctx.db, session.id, { financingStatus: null });
    logError(log, "checkout: starting financing failed", error, { sessionId });
    if (isFinancingApiError(error, "NOT_ACTIVE_OPERATION")) return { kind: "redirect", url: `/checkout/${session.id}/status` };
    if (isFinancingApiError(error, "NOT_ELIGIBLE_FINANCIAL_OFFER")) return { kind: "offer_gone" };
    return { kind: "unavailable" };
  }

  if (result.financingStatus === "REQUESTED") {
    // The operation has moved on at the API (to which status, the spec does not say): it is read
    // before `pending` is recorded, and recorded with it, so the partner's notification of `pending`
    // and its GET both say that status (not GENERATED until a read minutes later). Unread (the API
    // did not answer), `pending` is recorded all the same, with the status of before, and the
    // status is read again off the customer's way (tracked, so a graceful stop waits for it).
    const operationId = session.operationId;
    const status = await readOperationStatus(ctx, session);
    await updateSession(
      ctx.db,
      session.id,
      { financingStatus: "REQUESTED", paymentUrl: result.paymentUrl, hasAlternatives: null },
      status && { operationId, status, source: "action" },
    );
    if (!status) void trackWork(() => refreshStatus(ctx, session.id, "action"));
    return { kind: "redirect", url: result.paymentUrl };
  }
  await updateSession(ctx.db, session.id, {
    financingStatus: result.financingStatus,
    hasAlternatives: result.hasAlternativeFinancialOffers,
  });
  await refreshStatus(ctx, session.id, "action");
  // Refused or failed, with alternatives: the partner API says to offer another option (the offers again).
  const hasAlternatives = result.hasAlternativeFinancialOffers;
  return result.financingStatus === "ERROR" ? { kind: "error", hasAlternatives } : { kind: "refused", hasAlternatives };
}

/**
 * Where a customer whose plan request reached the provider goes to sign: the paymentUrl POST
 * /financing gave. When that answer never got here (the instance died while the call was on its
 * way, and the API took the request: CLIENT_REQUESTED, nothing to choose again, nothing to cancel),
 * the operation's `financingUrl` (GET /operations/by-external-id, checked to be this session's
 * operation), the partner API's own page for the customer, which leads on to the provider. Else,
 * or when the API cannot say, the status page.
 */
export async function providerTarget(ctx: CheckoutContext, session: CheckoutSession): Promise<string> {
  const statusPage = `/checkout/${session.id}/status`;
  // The status page then says the agency is unavailable.
  if (sessionState(session) !== "pending" || !session.operationId || (await agencyUnavailable(ctx, session))) return statusPage;
  if (session.financingStatus === "REQUESTED" && session.paymentUrl) return session.paymentUrl;
  if (session.operationStatus !== "CLIENT_REQUESTED") return statusPage;
  try {
    const client = ctx.clientFor(await partnerOf(ctx, session));
    const operation = await client.getOperationByExternalId(operationExternalId(session.bookingReference, session.operationAttempt));
    return operation.id === session.operationId && operation.financingUrl ? operation.financingUrl : statusPage;
  } catch (error) {
    logError(log, "checkout: the operation's financing page could not be read", error, { sessionId: session.id });
    return statusPage;
  }
}

// ---------------------------------------------------------------------------------------------
// Step 5: coming back, and the status page

export interface SessionStatusView {
  state: SessionState;
  final: boolean;
  operationStatus: string | null;
  /** Where a final outcome leads the customer: back to the partner. */
  returnUrl: string;
}

/**
 * Asks the partner API for the operation's status (conditionally: a 304 costs nothing) and records
 * it. A failure to reach the API leaves the last known status in place.
 */
export async function refreshStatus(
  ctx: CheckoutContext,
  sessionOrId: string | CheckoutSession,
  source: StatusSource,
): Promise<CheckoutSession> {
  const session = await sessionFrom(ctx, sessionOrId);
  if (!session.operationId) return session;
  // The reads an anonymous request triggers: within the window, what is stored (the last read's
  // outcome, or a webhook's since) stands in for a new call. Polls and returns apart: a customer
  // back from the provider is read at once even if the page polled a second ago (what is stored
  // then, which the status page shows next, is the return's read).
  if (ctx.statusReuse && (source === "poll" || source === "return")) {
    return ctx.statusReuse.run(
      `${source}:${session.id}`,
      () => readStatus(ctx, session, source),
      () => session,
    );
  }
  return readStatus(ctx, session, source);
}

/** The operation's status at the partner API, or undefined when it cannot be read now (logged). */
async function readOperationStatus(ctx: CheckoutContext, session: CheckoutSession): Promise<StatusReport | undefined> {
  if (!session.operationId) return undefined;
  try {
    return (await ctx.clientFor(await partnerOf(ctx, session)).getStatus(session.operationId)).status;
  } catch (error) {
    logError(log, "checkout: reading the status failed", error, { sessionId: session.id });
    return undefined;
  }
}

async function readStatus(ctx: CheckoutContext, session: CheckoutSession, source: StatusSource): Promise<CheckoutSession> {
  if (!session.operationId) return session;
  try {
    const read = await ctx.clientFor(await partnerOf(ctx, session)).getStatus(session.operationId);
    // The usual poll: nothing new since this request read the session, so no locking transaction.
    if (!isNewerStatus(session, read.status)) return session;
    // Stored now, by this read or by another (a webhook's processing may have recorded the same
    // status first): either way this request's copy is behind; the row the write locked is the
    // session as it stands (read again only when a correction detached the operation meanwhile).
    const recorded = await recordStatus(ctx.db, { sessionId: session.id, operationId: session.operationId }, read.status, source);
    return recorded.session ?? (await requireSession(ctx.db, session.id));
  } catch (error) {
    logError(log, "checkout: reading the status failed", error, { sessionId: session.id });
    return session;
  }
}

export function statusView(session: CheckoutSession): SessionStatusView {
  const state = sessionState(session);
  return { state, final: isFinal(state), operationStatus: session.operationStatus, returnUrl: returnUrlFor(session, state) };
}

/** The partner's return URL, with the session and its outcome (the partner re-checks with its API). */
export function returnUrlFor(session: CheckoutSession, state: SessionState): string {
  const url = new URL(session.returnUrl);
  url.searchParams.set("checkoutSession", session.id);
  url.searchParams.set("outcome", state);
  return url.toString();
}

/**
 * The status page's polling: a fresh read while the outcome is open, the stored one after. Given
 * the session this request has just read (the page's), it is not read again.
 */
export async function pollStatus(ctx: CheckoutContext, sessionOrId: string | CheckoutSession): Promise<SessionStatusView> {
  const session = await sessionFrom(ctx, sessionOrId);
  const state = sessionState(session);
  if (isFinal(state) || !session.operationId) return statusView(session);
  return statusView(await refreshStatus(ctx, session, "poll"));
}
