/**
 * The values the database's columns hold: the lists a text column takes one of, and the shape of
 * the JSON documents it stores. They live here, under the schema, so the schema imports no domain;
 * the domains take them from here (the financing contract's statuses, the checkout's session states)
 * and the ones that build a document with a zod schema check that its output is this shape. This
 * module imports nothing.
 */

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

/** What POST /financing said (`financingStatus`), or STARTING while one request is making the call. */
export type SessionFinancingStatus = FinancingStatus | "STARTING";

/**
 * What a staff account may do: an `operator` runs the platform (no partner); a partner's `admin`
 * manages its staff and settings; an `agent` works on operations. Refunding is a permission of its
 * own (`can_refund`), granted by an admin, not a role.
 */
export const STAFF_ROLES = ["operator", "admin", "agent"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
/** The roles of a partner's staff (every role but the operator's). */
export const PARTNER_STAFF_ROLES = ["admin", "agent"] as const;
export type PartnerStaffRole = (typeof PARTNER_STAFF_ROLES)[number];

/** What a one-time staff link is for (lib/identity/links.ts). */
export const STAFF_LINK_PURPOSES = ["enrolment", "invitation", "password-reset"] as const;
export type StaffLinkPurpose = (typeof STAFF_LINK_PURPOSES)[number];

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

/** Where a recorded operation status came from. */
export type StatusSource = "return" | "poll" | "webhook" | "action" | "reconcile";

/** How a received webhook event ended. */
export type WebhookEventResult = "acknowledged" | "rejected" | "status_mismatch" | "superseded";

/** The languages the checkout speaks (lib/i18n's `Locale`): Spanish, the default, and English. */
export const LOCALES = ["es", "en"] as const;
export type Locale = (typeof LOCALES)[number];

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

/** A partner notification's body, as signed and sent (lib/checkout/api/api-schemas.ts checks its schema's output is this). */
export interface StoredNotification {
  type: `checkout.session.${SessionState}`;
  timestamp: string;
  data: {
    id: string;
    bookingReference: string;
    state: SessionState;
    final: boolean;
    operation: { id: string; status: OperationStatus | null; updatedAt: string | null } | null;
  };
}

/**
 * The customer's fields, in the order the details form shows them (its error summary lists errors
 * in this order). The checkout validates them (lib/checkout/session/customer.ts); the stored draft
 * is keyed by them.
 */
export const CUSTOMER_FIELDS = [
  "firstName",
  "lastName",
  "birthDate",
  "gender",
  "nationality",
  "email",
  "prefix",
  "phone",
  "documentType",
  "documentId",
  "documentValidityDate",
  "address",
  "city",
  "postalCode",
  "countryCode",
] as const;
export type CustomerField = (typeof CUSTOMER_FIELDS)[number];

/** What the customer typed (or the partner prefilled), by field: every value a string, possibly missing. */
export type StoredCustomerDraft = Partial<Record<CustomerField, string>>;

/** True when A and B are the same type: a domain's check that the document its schema builds is the stored one. */
export type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
