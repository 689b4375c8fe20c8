import type { OperationStatus, WebhookStatus, WireCreateOperationRequest } from "@/lib/financing/contract";
import type { SandboxKey } from "./accounts";
import type { HistoryEntry } from "./db/schema";
import type { SandboxOffer } from "./offers";

/**
 * The sandbox operation as the engine's rules see it, its e-mail-tag triggers and the constants of
 * its life (expiry, fees). No database and no HTTP here: the rows are read in `operation-store.ts`,
 * the state machine is `transitions.ts`.
 */

export const TRIGGERS = [
  "refuse_first",
  "refuse_offer",
  "error_offer",
  "refuse_all",
  "error",
  "decline",
  "refund_reject",
  "not_eligible",
] as const;
export type Trigger = (typeof TRIGGERS)[number];

/** An operation not finished this long after it was created expires (GENERATED to PENDING_RESPONSE). */
export const EXPIRY_SECONDS = 24 * 60 * 60;
export const EXPIRABLE: readonly OperationStatus[] = ["GENERATED", "PENDING", "CLIENT_REQUESTED", "PENDING_RESPONSE"];

/** Fees of the refund breakdown, in basis points of the trip price. */
export const MANAGEMENT_FEE_BPS = 150; // 1.5 %, charged on top of the price (totalReserve) and not refunded
export const CANCELLATION_FEE_BPS = 200; // 2 %, the service's own cancellation fee

export interface Caller {
  key: SandboxKey;
  /** The agency this call acts for: the key's own, or the group key's agency header. */
  agencyId: number;
  /** The key's sandbox account: its clock and faults. */
  account: string;
}

export interface SandboxOperation {
  id: string;
  operationNumber: number;
  /** The account whose key created it: its clock applies to it, its reset forgets it. */
  account: string;
  agencyId: number;
  externalId: string | null;
  status: OperationStatus;
  totalPriceCents: number;
  managementFeeCents: number;
  currency: string;
  /** The customer's country: the market whose providers are offered. */
  countryCode: string;
  request: WireCreateOperationRequest;
  token: string;
  triggers: ReadonlySet<Trigger>;
  createdAt: number;
  updatedAt: number;
  history: HistoryEntry[];
  /** Installment counts every provider refused (+refuse_offer): no longer offered. */
  refusedInstallments: Set<number>;
  financing?: { requestToken: string; offer: SandboxOffer; refusedProviders: string[] };
  /** Last day of the trip (yyyy-MM-dd), after which a CONFIRMED operation is FINISHED. */
  travelEndDate: string | undefined;
}

export type StartFinancingOutcome =
  | { financingStatus: "REQUESTED"; paymentUrl: string }
  | { financingStatus: "REFUSED" | "ERROR"; paymentUrl: null; hasAlternativeFinancialOffers: boolean };

/** A change being made to one operation: its clock, and the webhook statuses it emits. */
export interface Change {
  now: number;
  emitted: WebhookStatus[];
}

/** `ana+refuse_first@example.com` -> {refuse_first}; several tags may be joined: `ana+decline+refund_reject@…`. */
export function triggersOf(email: string): ReadonlySet<Trigger> {
  const local = email.split("@")[0] ?? "";
  const tags = local.split("+").slice(1);
  return new Set(tags.filter((tag): tag is Trigger => (TRIGGERS as readonly string[]).includes(tag)));
}

const BODY_DATE = /^(\d{2})-(\d{2})-(\d{4})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})/;

/**
 * The trip's last day (yyyy-MM-dd): the latest date found among the items' fields, whatever their
 * names (items are free-form: `returnDate`, `checkOutDate`, `checkOut`…), in the body's dd-MM-yyyy
 * or as an ISO date. Undefined when no item carries a date: such a trip never becomes FINISHED.
 */
export function travelEndDate(body: WireCreateOperationRequest): string | undefined {
  const items: unknown[] = [...(body.flights ?? []), ...(body.hotels ?? []), ...(body.services ?? [])];
  const dates: string[] = [];
  for (const item of items) {
    if (item === null || typeof item !== "object") continue;
    for (const value of Object.values(item)) {
      if (typeof value !== "string") continue;
      const body = BODY_DATE.exec(value);
      const iso = ISO_DATE.exec(value);
      const date = body ? `${body[3]}-${body[2]}-${body[1]}` : iso ? `${iso[1]}-${iso[2]}-${iso[3]}` : undefined;
      if (date && !Number.isNaN(Date.parse(`${date}T00:00:00Z`))) dates.push(date);
    }
  }
  return dates.length > 0 ? dates.sort().at(-1) : undefined;
}
