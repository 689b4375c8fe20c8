import type { z } from "zod";
import type {
  FinancingStatus,
  OperationStatus,
  WebhookEvent,
  WireFinancialOffer,
  WireOperation,
  agencySchema,
  healthResponseSchema,
} from "./contract";
import { fromBodyDate, isIsoDate, toBodyDate } from "./dates";
import { amountFromCents, moneyFromAmount, type Money } from "./money";

/**
 * The app's own view of the partner API: ISO dates (yyyy-MM-dd), money in exact cents. The client
 * converts to and from the wire shapes of `contract.ts`; nothing else sees those.
 */

export type { Money, OperationStatus, FinancingStatus, WebhookEvent };
export type Agency = z.infer<typeof agencySchema>;
export type Health = z.infer<typeof healthResponseSchema>;

export interface Operation {
  id: string;
  operationNumber: number | undefined;
  externalId: string | null;
  status: OperationStatus;
  totalPrice: Money;
  totalReserve: Money;
  financingUrl: string | null;
  updatedAt: string | undefined;
}

export interface FinancialOffer {
  id: number;
  companyName: string;
  /** Annual percentage rate (TAE), in percent: 12.68 means 12.68 %. */
  tae: number;
  /** Nominal interest rate (TIN), in percent. */
  tin: number;
  installments: number;
  commonQuota: Money;
  differentialQuota: Money;
  differentialIsFirst: boolean;
  totalInterestPaid: Money;
  totalFinanced: Money;
  /** Fields the API sent beyond the documented ones, kept as they came. */
  extra: Record<string, unknown>;
}

export interface FinancialOffers {
  currency: string;
  offers: FinancialOffer[];
}

export interface OperationStatusInfo {
  operationId: string;
  status: OperationStatus;
  /** ISO 8601 date-time, as the API sent it. */
  updatedAt: string;
}

export type StartFinancingResult =
  | { financingStatus: "REQUESTED"; paymentUrl: string }
  | { financingStatus: "REFUSED" | "ERROR"; paymentUrl: null; hasAlternativeFinancialOffers: boolean };

export interface RefundBreakdown {
  operationId: string;
  totalReserve: Money;
  managementFees: Money;
  /** The partner API's own cancellation fee (`fliinowCancellationFee` on the wire). */
  serviceCancellationFee: Money;
  serviceCancellationFeePercentage: number;
  totalToRefund: Money;
}

/** The result of cancel and refund, whose success bodies the spec leaves open. */
export interface OperationChange {
  operationId: string;
  /** The status the API reported, when its answer carried one. */
  status: OperationStatus | undefined;
}

export interface Page<T> {
  content: T[];
  /** Page number, from 0. */
  number: number;
  size: number;
  totalElements: number;
  totalPages: number;
  first: boolean;
  last: boolean;
}

export interface ClientData {
  firstName: string;
  lastName: string;
  email: string;
  /** Telephone country prefix with its plus sign: "+34". */
  prefix: string;
  phone: string;
  documentId: string;
  /** yyyy-MM-dd */
  documentValidityDate: string;
  gender: "MALE" | "FEMALE";
  /** yyyy-MM-dd */
  birthDate: string;
  /** ISO 3166-1 alpha-3 */
  nationality: string;
  address: string;
  city: string;
  postalCode: string;
  /** ISO 3166-1 alpha-3 */
  countryCode: string;
}

export interface Flight {
  origin: string;
  destination: string;
  /** yyyy-MM-dd */
  departureDate: string;
  /** yyyy-MM-dd */
  returnDate?: string;
  carrier?: string;
}

export interface Hotel {
  name: string;
  city?: string;
  /** yyyy-MM-dd */
  checkInDate: string;
  /** yyyy-MM-dd */
  checkOutDate: string;
}

export interface Service {
  description: string;
  type?: string;
}

export interface CreateOperationInput {
  externalId: string;
  packageName?: string;
  packageTravel: boolean;
  travelersNumber: number;
  totalPrice: Money;
  successRedirectUrl?: string;
  errorRedirectUrl?: string;
  webhookUrl?: string;
  client: ClientData;
  flights?: Flight[];
  hotels?: Hotel[];
  services?: Service[];
}

export interface ListOperationsInput {
  page?: number;
  size?: number;
  status?: OperationStatus;
  /** yyyy-MM-dd */
  from?: string;
  /** yyyy-MM-dd */
  to?: string;
}

export interface RefundInput {
  agencyCancellationFee?: Money;
  providerCancellationFee?: Money;
  reason?: string;
}

// ---------------------------------------------------------------------------------------------
// Wire <-> app mapping

export function toOperation(wire: WireOperation): Operation {
  return {
    id: wire.id,
    operationNumber: wire.operationNumber,
    externalId: wire.externalId,
    status: wire.status,
    totalPrice: moneyFromAmount(wire.totalPrice.amount, wire.totalPrice.currency),
    totalReserve: moneyFromAmount(wire.totalReserve.amount, wire.totalReserve.currency),
    financingUrl: wire.financingUrl ?? null,
    updatedAt: wire.updatedAt,
  };
}

const OFFER_FIELDS = new Set([
  "id",
  "companyName",
  "tae",
  "tin",
  "installments",
  "commonQuota",
  "differentialQuota",
  "differentialIsFirst",
  "totalInterestPaid",
  "totalFinanced",
]);

export function toFinancialOffer(wire: WireFinancialOffer, currency: string): FinancialOffer {
  const extra = Object.fromEntries(Object.entries(wire).filter(([key]) => !OFFER_FIELDS.has(key)));
  return {
    id: wire.id,
    companyName: wire.companyName,
    tae: wire.tae,
    tin: wire.tin,
    installments: wire.installments,
    commonQuota: moneyFromAmount(wire.commonQuota, currency),
    differentialQuota: moneyFromAmount(wire.differentialQuota, currency),
    differentialIsFirst: wire.differentialIsFirst,
    totalInterestPaid: moneyFromAmount(wire.totalInterestPaid, currency),
    totalFinanced: moneyFromAmount(wire.totalFinanced, currency),
    extra,
  };
}

/** The create body as the API wants it. Date fields that are not ISO dates are left for validation to name. */
export function toWireCreateOperation(input: CreateOperationInput) {
  const date = (value: string | undefined) => (value === undefined ? undefined : safeBodyDate(value));
  return {
    externalId: input.externalId,
    packageName: input.packageName,
    packageTravel: input.packageTravel,
    travelersNumber: input.travelersNumber,
    totalPrice: amountFromCents(input.totalPrice.cents),
    successRedirectUrl: input.successRedirectUrl,
    errorRedirectUrl: input.errorRedirectUrl,
    webhookUrl: input.webhookUrl,
    client: {
      ...input.client,
      documentValidityDate: safeBodyDate(input.client.documentValidityDate),
      birthDate: safeBodyDate(input.client.birthDate),
    },
    flights: input.flights?.map((f) => ({ ...f, departureDate: safeBodyDate(f.departureDate), returnDate: date(f.returnDate) })),
    hotels: input.hotels?.map((h) => ({ ...h, checkInDate: safeBodyDate(h.checkInDate), checkOutDate: safeBodyDate(h.checkOutDate) })),
    services: input.services,
  };
}

function safeBodyDate(isoDate: string): string {
  // Not an ISO date: left as given, so the contract's validation names the field and refuses the call.
  return isIsoDate(isoDate) ? toBodyDate(isoDate) : isoDate;
}

export { fromBodyDate, toBodyDate };
