"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { CancelState, LoginState, RefundComputation, RefundErrors, RefundState } from "@/components/admin/form-states";
import { operationIdField as operationId, staffAction } from "@/lib/backoffice/actions";
import { recordAudit } from "@/lib/backoffice/audit";
import { deleteStaffSession, setStaffSessionAgency, signIn } from "@/lib/backoffice/auth";
import { ownsOperation } from "@/lib/backoffice/ownership";
import { refundBaseOf, reviewRefund, type RefundBase, type RefundValues } from "@/lib/backoffice/refund";
import {
  anyStaffSessionForAction,
  clearStaffCookie,
  codePath,
  isAdminPath,
  requestIp,
  requestUserAgent,
  setStaffCookie,
  staffCookieName,
  type StaffContext,
} from "@/lib/backoffice/staff";
import { getAppContext } from "@/lib/app-context";
import { REASON_MAX_LENGTH } from "@/lib/financing/contract";
import { isFinancingApiError } from "@/lib/financing/errors";
import { money } from "@/lib/financing/money";
import { validatedAction } from "@/lib/validated-action";
import { safeText } from "@/lib/validation/text";
import { logError, loggerFor } from "@/lib/logger";

const log = loggerFor("backoffice");

/*
 * The back-office's server actions. Each goes through validatedAction (zod first); every one but
 * the sign-in goes through staffAction, which refuses a request without a staff session before
 * anything else runs. redirect() comes after any try/catch. Amounts are recomputed on the server
 * from a fresh refund breakdown, never taken from the form.
 */

/** Longer than the API's 255 on purpose: the limit is checked below, with a message staff can act on. */
const reasonText = z
  .string()
  .check(safeText({ multiline: true }))
  .max(10_000)
  .default("");

// ---------------------------------------------------------------------------------------------
// Sign-in and sign-out

const signInSchema = z.object({
  email: z.string().check(safeText()).max(254).default(""),
  password: z.string().max(1000).default(""),
  next: z.string().check(safeText()).max(1000).optional(),
});

const signInValidated = validatedAction(signInSchema, async ({ email, password, next }) => {
  if (email.trim() === "" || password === "") return { ok: false as const, error: "missing" as const, email };
  const { db } = await getAppContext();
  // The browser's session before this sign-in (if any) ends with it: a new level, a new token.
  const previousToken = (await cookies()).get(await staffCookieName())?.value;
  const result = await signIn(db, { email, password, ip: await requestIp(), userAgent: await requestUserAgent(), previousToken });
  if (!result.ok) return { ok: false as const, error: result.reason, email };
  await setStaffCookie(result.token);
  // A password alone opens nothing: the second factor next.
  const target = isAdminPath(next) ? next : "/admin";
  return { ok: true as const, next: codePath(target) };
});

export async function signInAction(previous: LoginState, formData: FormData): Promise<LoginState> {
  const submission = (previous?.submission ?? 0) + 1;
  const outcome = await signInValidated(previous, formData);
  if ("invalid" in outcome) return { submission, error: "invalid" };
  if (!outcome.ok) return { submission, error: outcome.error, email: outcome.email.slice(0, 254) };
  redirect(outcome.next);
}

const signOutValidated = validatedAction(z.object({}), async () => {
  // Any session, also one still waiting for its second factor.
  const staff = await anyStaffSessionForAction();
  if (staff) await deleteStaffSession(staff.db, staff.token);
  return { ok: true as const };
});

export async function signOutAction(formData: FormData): Promise<void> {
  await signOutValidated(undefined, formData);
  await clearStaffCookie();
  redirect("/admin/login?signedOut=1");
}

// ---------------------------------------------------------------------------------------------
// Agency switcher (management group keys)

const switchAgencyValidated = staffAction(
  z.object({ agencyId: z.coerce.number().int().positive(), returnTo: z.string().max(1000).default("/admin") }),
  async (staff, { agencyId, returnTo }) => {
    // An operation page belongs to one agency: after a switch, the list of the new one.
    const back = !isAdminPath(returnTo) ? "/admin" : returnTo.startsWith("/admin/operations/") ? "/admin/operations" : returnTo;
    if (!staff.agency.switchable) return { ok: true as const, back };
    try {
      const agencies = await staff.client.listAgencies();
      if (agencies.some((agency) => agency.id === agencyId)) await setStaffSessionAgency(staff.db, staff.token, agencyId);
    } catch (error) {
      if (!isFinancingApiError(error)) throw error;
      logError(log, "backoffice: listing agencies for a switch failed", error);
    }
    return { ok: true as const, back };
  },
);

export async function switchAgencyAction(formData: FormData): Promise<void> {
  const outcome = await switchAgencyValidated(undefined, formData);
  redirect(outcome.ok ? outcome.back : "/admin");
}

// ---------------------------------------------------------------------------------------------
// Cancel

type CancelOutcome = { kind: "state"; state: Omit<CancelState, "submission"> } | { kind: "redirect"; to: string };

const cancelValidated = staffAction(z.object({ operationId, reason: reasonText }), async (staff, input): Promise<CancelOutcome> => {
  const page = `/admin/operations/${encodeURIComponent(input.operationId)}`;
  if (input.reason.length > REASON_MAX_LENGTH) return { kind: "state", state: { error: "too_long", reason: input.reason } };
  // Someone else's operation (a forged id): nothing is asked of the API; its page says "not found".
  if (!(await ownsOperation(staff, input.operationId))) return { kind: "redirect", to: page };
  try {
    await staff.client.cancelOperation(input.operationId, { reason: input.reason.trim() || undefined });
    await auditMoney(staff, "operation_cancelled", input.operationId, "ok"); // audit (issue 14)
    return { kind: "redirect", to: `${page}?notice=cancelled` };
  } catch (error) {
    if (!isFinancingApiError(error)) throw error;
    logError(log, "backoffice: cancel failed", error);
    await auditMoney(staff, "operation_cancelled", input.operationId, "failed", { status: error.status ?? 0 }); // audit (issue 14)
    if (error.is("OPERATION_NOT_CANCELLABLE")) {
      const status = error.operationStatus;
      return { kind: "redirect", to: `${page}?notice=not_cancellable${status ? `&was=${encodeURIComponent(status)}` : ""}` };
    }
    // Another account's, or unknown: the operation page says so.
    if (error.status === 403 || error.status === 404) return { kind: "redirect", to: page };
    return { kind: "state", state: { error: "unavailable", reason: input.reason } };
  }
});

/** A form field as typed, for a form sent back with its errors (a hand-made post may send a file). */
function typed(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === "string" ? value.slice(0, 20_000) : "";
}

/** Why the schema refused a reason: too long, or characters that cannot be used (safeText). */
function reasonProblem(reason: string): "too_long" | "characters" {
  return reason.length > 10_000 ? "too_long" : "characters";
}

export async function cancelOperationAction(previous: CancelState, formData: FormData): Promise<CancelState> {
  const submission = (previous?.submission ?? 0) + 1;
  const outcome = await cancelValidated(previous, formData);
  if ("invalid" in outcome) {
    // Not an operation id: a hand-made form, for no operation the page could show.
    if (outcome.invalid.some((issue) => issue.field !== "reason")) redirect("/admin/operations");
    const reason = typed(formData, "reason");
    return { submission, error: reasonProblem(reason), reason };
  }
  if (outcome.kind === "state") return { submission, ...outcome.state };
  redirect(outcome.to);
}

// ---------------------------------------------------------------------------------------------
// Refund: edit the charges, review the server's computation, confirm

const refundSchema = z.object({
  operationId,
  intent: z.enum(["review", "confirm", "edit"]),
  agencyFee: z.string().max(50).default(""),
  providerFee: z.string().max(50).default(""),
  reason: reasonText,
  /** The total the staff member confirmed, in cents: the refund goes ahead only if it still holds. */
  expectedTotal: z
    .string()
    .regex(/^-?\d{1,15}$/)
    .optional(),
});

async function currentStatus(staff: StaffContext, id: string): Promise<string | null> {
  try {
    return (await staff.client.getStatus(id)).status.status;
  } catch (error) {
    if (!isFinancingApiError(error)) throw error;
    logError(log, "backoffice: reading the status after a refund failed", error);
    return null;
  }
}

/** A refund state before its submission count (Omit over each member of the union). */
type RefundOutcome = RefundState extends infer S ? (S extends RefundState ? Omit<S, "submission"> : never) : never;

const refundValidated = staffAction(refundSchema, async (staff, input): Promise<RefundOutcome> => {
  const values: RefundValues = { agencyFee: input.agencyFee, providerFee: input.providerFee, reason: input.reason };
  if (input.intent === "edit") return { step: "edit", values };
  // Someone else's operation (a forged id): "not found", and nothing is asked of the API.
  if (!(await ownsOperation(staff, input.operationId))) return { step: "failed", reason: "not_found", status: null };

  let base: RefundBase;
  try {
    base = refundBaseOf(await staff.client.getRefundDetails(input.operationId));
  } catch (error) {
    if (!isFinancingApiError(error)) throw error;
    logError(log, "backoffice: reading the refund breakdown failed", error);
    if (error.is("OPERATION_NOT_REFUNDABLE")) {
      return { step: "failed", reason: "not_refundable", status: error.operationStatus ?? (await currentStatus(staff, input.operationId)) };
    }
    return { step: "failed", reason: "unavailable", status: null };
  }

  const review = reviewRefund(base, values);
  if (!review.ok) return { step: "edit", values, errors: review.errors, base };
  const computed: RefundComputation = {
    agencyFeeCents: review.agencyFeeCents,
    providerFeeCents: review.providerFeeCents,
    chargesCents: review.chargesCents,
    totalToRefundCents: review.totalToRefundCents,
  };
  if (input.intent === "review") return { step: "confirm", values, base, computed };
  // The breakdown moved since the staff member looked (it is read again now): show the new one.
  if (input.expectedTotal !== String(computed.totalToRefundCents)) return { step: "confirm", values, base, computed, changed: true };

  // audit (issue 14): the amounts the refund was asked for, in cents.
  const amounts = {
    currency: base.currency,
    agencyFeeCents: computed.agencyFeeCents,
    providerFeeCents: computed.providerFeeCents,
    chargesCents: computed.chargesCents,
    totalToRefundCents: computed.totalToRefundCents,
  };
  try {
    await staff.client.refund(input.operationId, {
      agencyCancellationFee: money(computed.agencyFeeCents, base.currency),
      providerCancellationFee: money(computed.providerFeeCents, base.currency),
      reason: review.reason || undefined,
    });
  } catch (error) {
    if (!isFinancingApiError(error)) throw error;
    logError(log, "backoffice: refund failed", error);
    await auditMoney(staff, "operation_refunded", input.operationId, "failed", { ...amounts, status: error.status ?? 0 }); // audit (issue 14)
    if (error.is("OPERATION_NOT_REFUNDABLE") && error.status === 422) {
      return { step: "rejected", status: await currentStatus(staff, input.operationId) };
    }
    if (error.is("OPERATION_NOT_REFUNDABLE")) {
      return { step: "failed", reason: "not_refundable", status: error.operationStatus ?? (await currentStatus(staff, input.operationId)) };
    }
    if (error.status === 400) return { step: "failed", reason: "validation", status: null };
    // Not retried (money moves): whether it happened is for the status to tell.
    return { step: "failed", reason: "unavailable", status: null };
  }
  await auditMoney(staff, "operation_refunded", input.operationId, "ok", amounts); // audit (issue 14)
  return { step: "done", values, base, computed, status: await currentStatus(staff, input.operationId) };
});

export async function refundAction(previous: RefundState, formData: FormData): Promise<RefundState> {
  const submission = (previous?.submission ?? 0) + 1;
  const outcome = await refundValidated(previous, formData);
  if ("invalid" in outcome) {
    // A hand-made form (no operation id, no step): nothing the page could go on with.
    if (outcome.invalid.some((issue) => !["agencyFee", "providerFee", "reason"].includes(issue.field))) {
      return { step: "failed", reason: "not_found", status: null, submission };
    }
    // The form again as typed, each refused field said as such: nothing is lost.
    const values: RefundValues = {
      agencyFee: typed(formData, "agencyFee"),
      providerFee: typed(formData, "providerFee"),
      reason: typed(formData, "reason"),
    };
    const errors: RefundErrors = {};
    for (const { field } of outcome.invalid) {
      if (field === "reason") errors.reason = reasonProblem(values.reason);
      else if (field === "agencyFee" || field === "providerFee") errors[field] = "amount";
    }
    return { step: "edit", values, errors, submission };
  }
  return { ...outcome, submission };
}

// ---------------------------------------------------------------------------------------------
// Audit (issue 14): who cancelled or refunded what, from where, with what result

async function auditMoney(
  staff: StaffContext,
  kind: "operation_cancelled" | "operation_refunded",
  operationId: string,
  result: "ok" | "failed",
  details?: Record<string, string | number>,
): Promise<void> {
  await recordAudit(staff.db, {
    kind,
    result,
    partnerId: staff.partner.id,
    staff: { id: staff.user.id, name: staff.user.name },
    operationId,
    ip: await requestIp(),
    details,
  });
}
