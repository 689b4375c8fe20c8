import "server-only";
import { isFinancingApiError } from "@/lib/financing/errors";
import { logError, loggerFor } from "@/lib/logger";
import { isPartnerDisabled, type Partner } from "@/lib/partners/partners";
import { clientDataHash, operationBooking } from "./booking";
import type { ClientData } from "@/lib/financing/types";
import { toClientData, validateCustomer, type CustomerDraft, type CustomerErrors } from "./customer";
import { editorTokenHash, isEditor, MAX_CORRECTIONS, mergeCorrection, PREFILL_MASKED_FIELDS } from "./customer-editor";
import { getCustomerDraft, reserveCorrection, saveCustomerData } from "./customer-store";
import { checkoutUrls, partnerOf, refreshStatus, type CheckoutContext } from "./flow";
import { detachOperation, skipOperationExternalId } from "./operation-link";
import { sessionState, type CheckoutSession } from "./session-state";
import { requireSession } from "./sessions";
import { attachOperationWithStatus } from "./session-status";

const log = loggerFor("checkout");

/**
 * Step 2 of the checkout (docs/contributors/architecture.md, "The checkout as data moves"): the
 * customer's data, then the operation at the partner API. The steps before and after are flow.ts.
 */

export type SubmitCustomerResult =
  { ok: true } | { ok: false; errors: CustomerErrors; draft: CustomerDraft } | { ok: false; failure: SubmitFailure; draft: CustomerDraft };

/**
 * Why a submit changed nothing: `not_editor`, the data was sent from another browser (only that
 * one may correct it); `too_many_corrections`, the session's corrections are used up.
 */
export type SubmitFailure = "unavailable" | "expired" | "closed" | "not_editor" | "too_many_corrections" | "agency_unavailable" | "erased";

/**
 * Validates and stores the customer's data, then creates the operation (externalId = the booking
 * reference). A repeat (double submit, back button) with the same data finds the operation already
 * there; creation is idempotent at the partner API too.
 *
 * `editorToken` is the submitting browser's token (its cookie, or a new one the caller sets as the
 * cookie on success): the first submit binds the data to it, and only it may send the data again
 * (customer-editor.ts). A later submit is a correction over the stored data: a blank masked field
 * keeps what was sent. The draft handed back on a failure is only what was typed, never the stored data.
 *
 * A correction (the customer went Back from the plans and changed their details) must reach the
 * provider: the operation was created with the old data, and creating again under the same
 * externalId would only return it. So the operation, while no plan has been requested
 * (GENERATED, PENDING or ERROR at the partner API), is cancelled and a new one is created under a
 * derived externalId (`{reference}~{n}`, booking.ts). Once it cannot be cancelled, the change is
 * refused ("closed": the form says the payment can no longer be changed and links to its status),
 * never accepted and dropped. Corrections that change the data are capped per session (MAX_CORRECTIONS).
 */
export async function submitCustomer(
  ctx: CheckoutContext,
  sessionId: string,
  typed: CustomerDraft,
  editorToken: string,
): Promise<SubmitCustomerResult> {
  const refuse = (failure: SubmitFailure): SubmitCustomerResult => ({ ok: false, failure, draft: typed });
  let session = await requireSession(ctx.db, sessionId);
  // Before anything is stored: a disabled partner's checkout takes no more of the customer's data.
  const partner = await partnerOf(ctx, session);
  if (isPartnerDisabled(partner)) return refuse("agency_unavailable");
  const state = sessionState(session);
  if (state === "expired") return refuse("expired");
  if (state !== "open" && state !== "choosing") return refuse("closed");

  const found = await getCustomerDraft(ctx.db, session.id);
  // Erased data takes nothing more; data no key opens cannot be merged with: neither is guessed at.
  if (found?.status === "erased") return refuse("erased");
  if (found?.status === "unavailable") return refuse("unavailable");
  const stored = found;
  const sentBefore = stored?.submitted === true;
  if (sentBefore && !isEditor(editorToken, stored.editorTokenHash)) return { ok: false, failure: "not_editor", draft: {} };
  // Over a partner's prefill, its identity fields were shown masked: left blank, they keep the prefill.
  const draft = sentBefore
    ? mergeCorrection(stored.draft, typed)
    : stored
      ? mergeCorrection(stored.draft, typed, PREFILL_MASKED_FIELDS)
      : typed;

  const result = validateCustomer(draft, ctx.today());
  if (!result.ok) return { ok: false, errors: result.errors, draft: typed };
  const client = toClientData(result.customer);
  const clientHash = clientDataHash(client);
  const tokenHash = editorTokenHash(editorToken);
  // What the provider got last time, when data was sent before.
  const sentHash = sentBefore ? clientHashOf(ctx, stored.draft) : undefined;

  // A change of what was sent (not a repeat): one of the session's corrections, counted before
  // anything is cancelled upstream and kept even if the replacement fails (each try may cost two
  // calls at the partner API).
  const correction = sentBefore && sentHash !== clientHash;
  if (correction && !(await reserveCorrection(ctx.db, session.id, tokenHash, MAX_CORRECTIONS))) return refuse("too_many_corrections");

  if (session.operationId) {
    // An operation created before fingerprints were kept has none: the stored data stands in.
    if ((session.operationClientHash ?? sentHash) === clientHash) {
      // The same data for the provider (a repeat, or a change it never sees): kept, nothing to resend.
      return (await saveCustomerData(ctx.db, session.id, { ...result.customer }, tokenHash)) ? { ok: true } : refuse("not_editor");
    }
    const replaced = await cancelForCorrection(ctx, partner, session);
    if (replaced !== "cancelled") return refuse(replaced);
    session = await requireSession(ctx.db, sessionId);
    if (session.operationId) return refuse("unavailable");
  }
  // Another browser's first submit stored at the same moment: this one is refused, not mixed in.
  if (!(await saveCustomerData(ctx.db, session.id, { ...result.customer }, tokenHash))) return refuse("not_editor");
  try {
    await createOperation(ctx, partner, session, client, clientHash);
    return { ok: true };
  } catch (error) {
    // Logged without the body: the error type carries no customer data.
    logError(log, "checkout: creating the operation failed", error, { sessionId });
    return refuse("unavailable");
  }
}

/** How many derived externalIds one submit tries when each names another session's operation. */
const MAX_EXTERNAL_ID_SKIPS = 5;

/** Creates the session's operation at the partner API, attaches it, and records its first status. */
async function createOperation(
  ctx: CheckoutContext,
  partner: Partner,
  session: CheckoutSession,
  client: ClientData,
  clientHash: string,
): Promise<void> {
  const urls = checkoutUrls(ctx, session.id);
  const create = (attempt: number) =>
    ctx.clientFor(partner).createOperation({
      ...operationBooking(session.booking, attempt),
      client,
      successRedirectUrl: urls.success,
      errorRedirectUrl: urls.error,
      webhookUrl: urls.webhook,
    });
  let operation = await create(session.operationAttempt);
  // The externalId names another session's operation (another partner's booking under the same
  // reference, in an agency both act for): this session moves on to the next derived one.
  for (let skipped = 0; ; skipped++) {
    const report = { status: operation.status, updatedAt: operation.updatedAt ?? new Date().toISOString() };
    const attached = await attachOperationWithStatus(
      ctx.db,
      { sessionId: session.id, operationId: operation.id, clientHash },
      report,
      "action",
    );
    if (attached !== "elsewhere") return;
    if (skipped === MAX_EXTERNAL_ID_SKIPS) throw new Error("every derived externalId tried names another session's operation");
    await skipOperationExternalId(ctx.db, session.id);
    session = await requireSession(ctx.db, session.id);
    log.info(
      { sessionId: session.id, attempt: session.operationAttempt },
      "checkout: the externalId is another session's; using the next one",
    );
    operation = await create(session.operationAttempt);
  }
}

/** The fingerprint of stored data as the provider would get it (undefined if it no longer validates). */
function clientHashOf(ctx: CheckoutContext, draft: CustomerDraft): string | undefined {
  const valid = validateCustomer(draft, ctx.today());
  return valid.ok ? clientDataHash(toClientData(valid.customer)) : undefined;
}

/**
 * Cancels the session's operation so that corrected details can go in a new one, and unlinks it.
 * "closed" when the partner API says it can no longer be cancelled (a plan was requested), or when
 * the customer already chose a plan here.
 */
async function cancelForCorrection(
  ctx: CheckoutContext,
  partner: Partner,
  session: CheckoutSession,
): Promise<"cancelled" | "closed" | "unavailable"> {
  const operationId = session.operationId!;
  if (session.financingStatus === "REQUESTED") return "closed";
  try {
    await ctx.clientFor(partner).cancelOperation(operationId, {
      reason: "The customer corrected their details; a new operation replaces this one.",
    });
  } catch (error) {
    if (isFinancingApiError(error, "OPERATION_NOT_CANCELLABLE")) {
      await refreshStatus(ctx, session.id, "action");
      return "closed";
    }
    logError(log, "checkout: cancelling the operation for a correction failed", error, { sessionId: session.id });
    return "unavailable";
  }
  log.info({ sessionId: session.id, operationId }, "checkout: operation cancelled for the customer's corrected details");
  await detachOperation(ctx.db, session.id, operationId);
  return "cancelled";
}
