/** The partner API's own words: an operation's statuses, the ones a webhook is sent for, POST /financing's outcome. */

/** An operation's status at the partner API (the contract's `OperationStatus`). */
export const OPERATION_STATUSES = [
  "GENERATED",
  "PENDING",
  "CLIENT_REQUESTED",
  "PENDING_RESPONSE",
  "FAVORABLE",
  "CONFIRMED",
  "REFUSED",
  "REFUNDED",
  "CANCELLED",
  "EXPIRED",
  "ERROR",
  "FINISHED",
] as const;
export type OperationStatus = (typeof OPERATION_STATUSES)[number];

/** The statuses a webhook is sent for ("final or actionable"). */
export const WEBHOOK_STATUSES = ["CONFIRMED", "REFUSED", "EXPIRED", "CANCELLED", "REFUNDED", "ERROR"] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/** `financingStatus` of POST /financing: the outcome of that call, not the operation status. */
export const FINANCING_STATUSES = ["REQUESTED", "REFUSED", "ERROR"] as const;
export type FinancingStatus = (typeof FINANCING_STATUSES)[number];
