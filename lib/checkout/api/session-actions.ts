import "server-only";
import type { z } from "zod";
import { AppError } from "@/lib/app-error";
// Registers the API's own codes (thrown here) with the error type.
import "./error-codes";
import { getAppContext } from "@/lib/app-context";
import type { ApiCaller } from "@/lib/partners/api-secrets";
import type { ApiScope } from "@/lib/vocabulary/api-scopes";
import { clientIpFrom } from "@/lib/security/network/client-ip";
import { loggerFor } from "@/lib/logger";
import { auditOperationEvent, type OperationActor } from "@/lib/money-moves/actor";
import { cancelAtPartnerApi } from "@/lib/money-moves/cancel";
import { computeRefund, readRefundBreakdown, refundAtPartnerApi, type RefundBase } from "@/lib/money-moves/refund";
import { refreshStatus, type CheckoutContext } from "../session/flow";
import { sessionState, type CheckoutSession } from "../session/session-state";
import { requireSession } from "../session/sessions";
import { cancelUnstartedSession, recordOperationStatus } from "../session/session-status";
import { eraseSessionCustomerData } from "../session/erasure";
import {
  cancelSessionRequestSchema,
  eraseSessionRequestSchema,
  refundSessionRequestSchema,
  type RefundBreakdownResource,
  type SessionRefundResource,
} from "./refund-schemas";
import type { CheckoutSessionResource } from "./api-schemas";
import { fieldErrorsOf, parseForApi } from "./validation";
import {
  authenticateCaller,
  partnersSession,
  readJson,
  readSessionResource,
  sessionResource,
  sessionsApiThrottles,
  partnerBudget,
  readBudget,
  type SessionsApiThrottles,
} from "./sessions-api";

/**
 * What a partner's backend does to one of its sessions through the checkout sessions API: cancel
 * it before its customer signs, read what a refund would give back, refund it once signed. The
 * cancel and the refund are the back-office's own (lib/money-moves), audited in the
 * partner's audit log as made by the API secret, by its name. Each handler answers `{ status, body }`
 * or throws an AppError, like handleCreateSession, so that a wrapper (an idempotency key's) can go
 * around it. Another partner's session is "not found", before anything else is looked at.
 */

const log = loggerFor("checkout");

/** The states a session is cancelled in: its customer has not asked a provider for the financing yet. */
const CANCELLABLE = new Set(["open", "choosing"]);

type Handler<T> = (
  request: Request,
  id: string,
  throttles?: SessionsApiThrottles,
  context?: () => Promise<CheckoutContext>,
) => Promise<{ status: 200; body: T }>;

/** The body checked against `schema`: a 400 naming every refused field (an unknown one included). */
function validBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = parseForApi(schema, body);
  if (parsed.success) return parsed.data;
  const fields = fieldErrorsOf(parsed.error.issues);
  throw new AppError("validation_failed", `Invalid request: ${fields.map((f) => `${f.field} ${f.message}`).join("; ")}`, { fields });
}

/**
 * A cancel, refund or erase handler, with the scope it needs. What each does first, in this order:
 * the caller's secret and its scope (403 `insufficient_scope` without it), the
 * actions' budget, the session (another partner's: not found, before its body is read), then the
 * body; `act` takes it from there, with the caller as the audit names it.
 */
function sessionActionHandler<S extends z.ZodType, T>(
  scope: ApiScope,
  schema: S,
  act: (
    ctx: CheckoutContext,
    found: { caller: ApiCaller; session: CheckoutSession; input: z.output<S>; actor: OperationActor },
  ) => Promise<{ status: 200; body: T }>,
): Handler<T> {
  return async (request, id, throttles = sessionsApiThrottles(), context = getAppContext) => {
    const ctx = await context();
    const caller = await authenticateCaller(
      ctx,
      request,
      scope,
      throttles,
      partnerBudget(throttles.actionsPerPartner, "cancels, refunds and erasures"),
    );
    const session = await partnersSession(ctx, caller.partner, id);
    const input = validBody(schema, await readJson(request, { empty: {} }));
    return act(ctx, { caller, session, input, actor: apiActor(ctx, caller, request, throttles) });
  };
}

/** The caller as the cancel and the refund audit it: the partner's secret, by its name, from the request's address. */
function apiActor(ctx: CheckoutContext, caller: ApiCaller, request: Request, throttles: SessionsApiThrottles): OperationActor {
  return {
    db: ctx.db,
    partnerId: caller.partner.id,
    ip: clientIpFrom(request.headers, throttles.trustedProxyHops),
    who: { kind: "api", secretId: caller.secret.id, secretName: caller.secret.name, secretCreatedBy: caller.secret.createdBy },
  };
}

function notCancellable(session: CheckoutSession): AppError {
  const state = sessionState(session);
  return new AppError(
    "not_cancellable",
    `The session is ${state}: only an open session, or one whose customer is choosing a plan, can be cancelled` +
      (state === "pending" || state === "approved" || state === "confirmed" ? " (once signed, refund it instead)" : ""),
    { state },
  );
}

function notRefundable(session: CheckoutSession): AppError {
  const state = sessionState(session);
  return new AppError("not_refundable", `The session is ${state}: only a confirmed session can be refunded`, { state });
}

function financingUnavailable(what: string): AppError {
  return new AppError("financing_unavailable", `The financing partner could not be reached ${what}: try again in a moment`);
}

/**
 * POST /api/checkout-sessions/{id}/cancel: before the customer signs. An open session (no
 * operation yet) ends here, `cancelled`; one whose customer is choosing a plan has its operation
 * cancelled at the partner API, which has the last word. After that: 409 `not_cancellable` with
 * the state (a confirmed session is refunded instead).
 */
export const handleCancelSession: Handler<CheckoutSessionResource> = sessionActionHandler(
  "sessions:cancel",
  cancelSessionRequestSchema,
  async (ctx, found) => {
    const { caller, input, actor } = found;
    let session = found.session;
    const details = { bookingReference: session.bookingReference };

    if (!session.operationId) {
      const cancelled = await cancelUnstartedSession(ctx.db, session.id);
      if (cancelled) {
        await auditOperationEvent(actor, { kind: "operation_cancelled", operationId: null, result: "ok", details });
        log.info(
          { partnerId: caller.partner.id, sessionId: session.id },
          "checkout API: session cancelled before its customer sent their data",
        );
        return { status: 200, body: await readSessionResource(ctx, cancelled) };
      }
      // The customer's data created an operation meanwhile, or the session ended: as it is now.
      session = await requireSession(ctx.db, session.id);
    }
    const operationId = session.operationId;
    if (!operationId || !CANCELLABLE.has(sessionState(session))) throw notCancellable(session);

    const outcome = await cancelAtPartnerApi(actor, ctx.clientFor(caller.partner), {
      operationId,
      reason: input.reason ?? "",
      details,
    });
    if (!outcome.ok) {
      if (outcome.reason === "not_cancellable") throw notCancellable(await refreshStatus(ctx, session, "action"));
      throw financingUnavailable("to cancel the session");
    }
    let after = await refreshStatus(ctx, session, "action");
    if (sessionState(after) !== "cancelled" && outcome.change.status === "CANCELLED") {
      // The status could not be read back: the cancel's own answer stands for it.
      await recordOperationStatus(
        ctx.db,
        { sessionId: session.id, operationId },
        { status: "CANCELLED", updatedAt: new Date().toISOString() },
        "action",
      );
      after = await requireSession(ctx.db, session.id);
    }
    log.info({ partnerId: caller.partner.id, sessionId: session.id }, "checkout API: session's operation cancelled");
    return { status: 200, body: await readSessionResource(ctx, after) };
  },
);

/** The session's operation's refund breakdown, or the refusal the partner sees. */
async function breakdownOf(
  ctx: CheckoutContext,
  caller: ApiCaller,
  session: CheckoutSession,
): Promise<{ operationId: string; base: RefundBase }> {
  if (!session.operationId) throw notRefundable(session);
  const breakdown = await readRefundBreakdown(ctx.clientFor(caller.partner), session.operationId);
  if (breakdown.ok) return { operationId: session.operationId, base: breakdown.base };
  if (breakdown.reason === "not_refundable") throw notRefundable(await refreshStatus(ctx, session, "action"));
  throw financingUnavailable("to read the refund's breakdown");
}

/** GET /api/checkout-sessions/{id}/refund: what a refund now would give back (the read budget). */
export async function handleGetRefund(
  request: Request,
  id: string,
  throttles: SessionsApiThrottles = sessionsApiThrottles(),
  context: () => Promise<CheckoutContext> = getAppContext,
): Promise<RefundBreakdownResource> {
  const ctx = await context();
  const caller = await authenticateCaller(ctx, request, "sessions:read", throttles, readBudget(throttles));
  const session = await partnersSession(ctx, caller.partner, id);
  const { operationId, base } = await breakdownOf(ctx, caller, session);
  return {
    sessionId: session.id,
    operationId,
    currency: base.currency,
    totalReserveCents: base.totalReserveCents,
    managementFeesCents: base.managementFeesCents,
    cancellationFeeCents: base.cancellationFeeCents,
    cancellationFeePercentage: base.cancellationFeePercentage,
    totalToRefundCents: base.totalToRefundCents,
  };
}

/**
 * POST /api/checkout-sessions/{id}/refund: refunds a confirmed session's financing, keeping the
 * agency's and the provider's charges, checked against a breakdown read now. Made once: a refund
 * of the same session (or operation, from the back-office) already under way is a 409
 * `refund_in_progress`; a provider's refusal a 422 `refund_rejected` that changed nothing.
 */
export const handleRefundSession: Handler<SessionRefundResource> = sessionActionHandler(
  "sessions:refund",
  refundSessionRequestSchema,
  async (ctx, { caller, session, input, actor }) => {
    const { operationId, base } = await breakdownOf(ctx, caller, session);

    const computed = computeRefund(base, { agencyFeeCents: input.agencyFeeCents ?? 0, providerFeeCents: input.providerFeeCents ?? 0 });
    if (computed.totalToRefundCents < 0) {
      const message = `together, the charges exceed what can be refunded (${base.totalToRefundCents} cents)`;
      const charged = (["agencyFeeCents", "providerFeeCents"] as const).filter((field) => (input[field] ?? 0) > 0);
      const fields = charged.map((field) => ({ field, message }));
      throw new AppError("validation_failed", `Invalid refund: ${message}`, { fields });
    }
    if (input.expectedTotalToRefundCents !== undefined && input.expectedTotalToRefundCents !== computed.totalToRefundCents) {
      const message = `is not what would be refunded now: ${computed.totalToRefundCents} cents (read the breakdown again)`;
      throw new AppError("conflict", `Nothing refunded: expectedTotalToRefundCents ${message}`, {
        fields: [{ field: "expectedTotalToRefundCents", message }],
      });
    }

    const outcome = await refundAtPartnerApi(actor, ctx.clientFor(caller.partner), {
      operationId,
      base,
      computed,
      reason: input.reason ?? "",
      details: { bookingReference: session.bookingReference },
    });
    if (!outcome.ok) {
      switch (outcome.reason) {
        case "in_progress":
          throw new AppError("refund_in_progress", "A refund of this session is already under way: read the session before trying again");
        case "rejected":
          throw new AppError("refund_rejected", "The financing provider rejected the refund: nothing was refunded and no charge recorded", {
            state: sessionState(await refreshStatus(ctx, session, "action")),
          });
        case "not_refundable":
          throw notRefundable(await refreshStatus(ctx, session, "action"));
        case "validation":
          throw new AppError("validation_failed", "The financing partner refused the refund's amounts", {
            fields: [{ field: "(body)", message: "the financing partner refused these amounts" }],
          });
        default:
          // Money may have moved: never to be retried blindly.
          throw new AppError(
            "financing_unavailable",
            "The financing partner did not answer the refund: whether it was made is not known yet. Read the session (it becomes refunded if it was) before trying again",
          );
      }
    }
    const after = await refreshStatus(ctx, session, "action");
    log.info({ partnerId: caller.partner.id, sessionId: session.id }, "checkout API: session refunded");
    return {
      status: 200,
      body: {
        session: await readSessionResource(ctx, after),
        refund: {
          currency: base.currency,
          agencyFeeCents: computed.agencyFeeCents,
          providerFeeCents: computed.providerFeeCents,
          chargesCents: computed.chargesCents,
          totalToRefundCents: computed.totalToRefundCents,
        },
      },
    };
  },
);

/**
 * POST /api/checkout-sessions/{id}/erase: erases the session's customer data (lib/checkout/session/erasure.ts),
 * audited under the secret's name, and answers the session with `customerDataErasedAt`. A repeat
 * answers the same (no second notification); while the customer's outcome is open, a 409
 * `customer_data_in_use` with the session's `state` and `Retry-After`.
 */
export const handleEraseSession: Handler<CheckoutSessionResource> = sessionActionHandler(
  "sessions:erase",
  eraseSessionRequestSchema,
  async (ctx, { caller, session, actor }) => {
    const erased = await eraseSessionCustomerData(ctx.db, {
      sessionId: session.id,
      partnerId: caller.partner.id,
      by: { kind: "api", secretName: caller.secret.name, secretId: caller.secret.id, secretCreatedBy: caller.secret.createdBy },
      ip: actor.ip,
    });
    return { status: 200, body: sessionResource(ctx, erased.session, erased.erasedAt) };
  },
);
