import { defineErrorCodes } from "@/lib/app-error";
import { isFinal, sessionState, type CheckoutSession, type SessionState } from "./session-state";

/**
 * When a session's customer data may be erased, without the database (erasure.ts applies it).
 *
 * Not while the customer's outcome is open, because the data is still in use:
 * - `open`: the customer may still send their data (the prefill is theirs to check);
 * - `choosing`: the operation is GENERATED or PENDING at the partner API, and the customer may
 *   still choose a plan and go to the provider;
 * - `pending`: the customer is at the provider, or the provider is deciding: they may still sign.
 * Every final state may be erased (the accounting record stays: the session, its booking
 * reference, amounts, plan, states and dates).
 *
 * The refusal says when to try again: the session's expiry while it is still ahead (an open or
 * choosing session ends then, or is read again soon after), else ERASURE_RETRY_DELAY_MS, a few
 * reconciler rounds (it reads the open operations' statuses every few minutes).
 */

/** The erasure's refusal while the data is in use (a conflict: try again later, `Retry-After`). */
export const ERASURE_ERROR_STATUS = defineErrorCodes({ customer_data_in_use: 409 });
type ErasureErrorTable = typeof ERASURE_ERROR_STATUS;

declare module "@/lib/app-error" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged into the error type's registry
  interface AppErrorCodes extends ErasureErrorTable {}
}

/** How long to wait before asking again when the session's expiry is already past. */
export const ERASURE_RETRY_DELAY_MS = 15 * 60_000;

export type ErasureDecision = { allowed: true; state: SessionState } | { allowed: false; state: SessionState; retryAt: Date };

/** Whether the session's customer data may be erased at `now`, and if not, when to ask again. */
export function erasureDecision(
  session: Pick<CheckoutSession, "operationStatus" | "expiresAt" | "financingStatus" | "notEligibleAt" | "cancelledAt">,
  now: Date,
): ErasureDecision {
  const state = sessionState(session, now);
  if (isFinal(state)) return { allowed: true, state };
  const later = new Date(now.getTime() + ERASURE_RETRY_DELAY_MS);
  const retryAt = state !== "pending" && session.expiresAt.getTime() > now.getTime() ? session.expiresAt : later;
  return { allowed: false, state, retryAt };
}

/** Whole seconds from `now` to `at`, at least 1: a `Retry-After`. */
export function secondsUntil(at: Date, now: Date): number {
  return Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000));
}
