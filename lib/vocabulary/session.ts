import type { FinancingStatus, OperationStatus } from "./partner-api";

/** A checkout session's words: its states, where a status came from, and the documents it stores. */

/**
 * Where a session stands, in the customer's and the partner's terms:
 * - open: the customer has not sent their data yet;
 * - choosing: the operation exists, the customer is choosing a plan;
 * - pending: the customer is at the provider, or the provider is deciding;
 * - approved / confirmed: the provider approved (FAVORABLE) / financing is active;
 * - not_eligible: the partner API said the operation can never be financed (no provider takes it);
 * - refused, error, cancelled, expired, refunded: it ended otherwise.
 */
export const SESSION_STATES = [
  "open",
  "choosing",
  "pending",
  "approved",
  "confirmed",
  "not_eligible",
  "refused",
  "error",
  "cancelled",
  "expired",
  "refunded",
] as const;
export type SessionState = (typeof SESSION_STATES)[number];

/** What POST /financing said (`financingStatus`), or STARTING while one request is making the call. */
export type SessionFinancingStatus = FinancingStatus | "STARTING";

/** Where a recorded operation status came from. */
export type StatusSource = "return" | "poll" | "webhook" | "action" | "reconcile";

/** How a received webhook event ended. */
export type WebhookEventResult = "acknowledged" | "rejected" | "status_mismatch" | "superseded";

/** An amount in whole minor units (1234.50 EUR is 123450). */
export interface StoredMoney {
  cents: number;
  currency: string;
}

/** The trip a session is for, as the partner sent it (lib/checkout/session/booking.ts checks its schema's output is this). */
export interface StoredBooking {
  bookingReference: string;
  packageName: string;
  packageTravel: boolean;
  travellers: number;
  totalPrice: { amount: number; currency: "EUR" };
  flights: { origin: string; destination: string; departureDate: string; returnDate?: string; carrier?: string }[];
  hotels: { name: string; city?: string; checkInDate: string; checkOutDate: string }[];
  services: { description: string; type?: string }[];
}

/** The plan the customer chose: an offer's figures, without its id and what the API sent beyond the contract. */
export interface StoredPlan {
  companyName: string;
  /** Annual percentage rate (TAE), in percent: 12.68 means 12.68 %. */
  tae: number;
  /** Nominal interest rate (TIN), in percent. */
  tin: number;
  installments: number;
  commonQuota: StoredMoney;
  differentialQuota: StoredMoney;
  differentialIsFirst: boolean;
  totalInterestPaid: StoredMoney;
  totalFinanced: StoredMoney;
}

/** The event a session's customer data was erased under: no session state, an event of its own. */
export const CUSTOMER_DATA_ERASED_EVENT = "customer_data_erased";

/** What a partner notification announces (`partner_notifications.state`): a state reached, or the erasure. */
export type NotificationSubject = SessionState | typeof CUSTOMER_DATA_ERASED_EVENT;

/** A partner notification's body, as signed and sent (lib/checkout/api/api-schemas.ts checks its schema's output is this). */
export interface StoredNotification {
  type: `checkout.session.${NotificationSubject}`;
  timestamp: string;
  data: {
    id: string;
    bookingReference: string;
    state: SessionState;
    final: boolean;
    operation: { id: string; status: OperationStatus | null; updatedAt: string | null } | null;
    /** Only on the erasure's notification: when the customer's data was erased. */
    customerDataErasedAt?: string;
  };
}
