import "server-only";
import { z } from "zod";

/**
 * The partner API's wire contract (`partner-api-spec.md`), as zod schemas: the one source of truth
 * for every request, response and error body, shared by the client here and by the sandbox.
 * These are the shapes on the wire (body dates dd-MM-yyyy, amounts as JSON numbers); the client
 * maps them into the app's own types (`types.ts`).
 *
 * Where the spec says "not shown", the choice made is commented and documented in the README.
 */

// ---------------------------------------------------------------------------------------------
// Enumerations

/** Every operation status, FINISHED included (one of the spec's two lists has it). */
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
export const operationStatusSchema = z.enum(OPERATION_STATUSES);
export type OperationStatus = z.infer<typeof operationStatusSchema>;

/** The statuses a webhook is sent for ("final or actionable"). */
export const WEBHOOK_STATUSES = ["CONFIRMED", "REFUSED", "EXPIRED", "CANCELLED", "REFUNDED", "ERROR"] as const;
export const webhookStatusSchema = z.enum(WEBHOOK_STATUSES);
export type WebhookStatus = z.infer<typeof webhookStatusSchema>;

/** The statuses POST /operations/{id}/cancel is valid for. */
export const CANCELLABLE_STATUSES = ["GENERATED", "PENDING", "ERROR"] as const satisfies readonly OperationStatus[];

/** `financingStatus` of POST /financing: the outcome of that call, not the operation status. */
export const FINANCING_STATUSES = ["REQUESTED", "REFUSED", "ERROR"] as const;
export const financingStatusSchema = z.enum(FINANCING_STATUSES);
export type FinancingStatus = z.infer<typeof financingStatusSchema>;

/** Every named error code of the spec, with the HTTP status(es) it comes with. */
export const ERROR_CODES = {
  VALIDATION_ERROR: [400],
  NO_FINANCIAL_COMPANIES_CONFIGURED: [422],
  DATA_INTEGRITY_ERROR: [422],
  INTERNAL_ERROR: [500],
  OPERATION_NOT_FOUND: [404],
  NOT_ELIGIBLE_FOR_FINANCING: [422],
  NOT_ACTIVE_OPERATION: [409],
  NOT_ELIGIBLE_FINANCIAL_OFFER: [422],
  OPERATION_NOT_CANCELLABLE: [400],
  OPERATION_NOT_REFUNDABLE: [400, 422],
  OPERATION_ACCESS_DENIED: [403],
  WEBHOOK_EVENT_OPERATION_MISMATCH: [403],
  WEBHOOK_EVENT_NOT_FOUND: [404],
  WEBHOOK_EVENT_STATUS_MISMATCH: [409],
  WEBHOOK_EVENT_NOT_ACKNOWLEDGEABLE: [409],
} as const satisfies Record<string, readonly number[]>;
export type ErrorCode = keyof typeof ERROR_CODES;
export const errorCodeSchema = z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]);

// ---------------------------------------------------------------------------------------------
// Formats

/** Request body dates. */
export const BODY_DATE_PATTERN = /^(\d{2})-(\d{2})-(\d{4})$/;
/** Query parameter dates (and the app's own ISO dates). */
export const QUERY_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export const bodyDateSchema = z.string().refine((value) => {
  const match = BODY_DATE_PATTERN.exec(value);
  return match !== null && isCalendarDate(Number(match[3]), Number(match[2]), Number(match[1]));
}, "must be a date as dd-MM-yyyy");

export const queryDateSchema = z.string().refine((value) => {
  const match = QUERY_DATE_PATTERN.exec(value);
  return match !== null && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
}, "must be a date as yyyy-MM-dd");

/** ISO 8601 date-time, with an offset or Z (Spring may also send local date-times without one). */
export const dateTimeSchema = z.string().refine((value) => !Number.isNaN(Date.parse(value)), "must be an ISO 8601 date-time");

export const countryCodeSchema = z.string().regex(/^[A-Z]{3}$/, "must be a 3-letter ISO 3166-1 alpha-3 code");

/** Amounts are JSON numbers; they must be finite and carry at most cents (checked where exactness matters). */
export const amountSchema = z.number().finite();

export const moneySchema = z.object({ amount: amountSchema, currency: z.string().min(1) });
export type WireMoney = z.infer<typeof moneySchema>;

// ---------------------------------------------------------------------------------------------
// Resources

export const operationSchema = z.looseObject({
  id: z.string().min(1),
  // Returned on creation; optional elsewhere (the by-external-id body does not list it).
  operationNumber: z.number().int().optional(),
  // Not required at creation, so an operation may have none.
  externalId: z.string().nullable(),
  status: operationStatusSchema,
  totalPrice: moneySchema,
  totalReserve: moneySchema,
  financingUrl: z.url().nullable().optional(),
  updatedAt: dateTimeSchema.optional(),
});
export type WireOperation = z.infer<typeof operationSchema>;

/** POST /operations 201 (and the idempotent repeat). */
export const createdOperationSchema = operationSchema.extend({
  operationNumber: z.number().int(),
  externalId: z.string().nullable(),
  financingUrl: z.url(),
});

/** GET /operations/by-external-id/{externalId}. */
export const operationByExternalIdSchema = operationSchema.extend({ financingUrl: z.url().nullable() });

/** Offers may carry fields beyond these; they are kept (loose object). */
export const financialOfferSchema = z.looseObject({
  id: z.number().int(),
  companyName: z.string(),
  tae: z.number().finite(),
  tin: z.number().finite(),
  installments: z.number().int().positive(),
  commonQuota: amountSchema,
  differentialQuota: amountSchema,
  differentialIsFirst: z.boolean(),
  totalInterestPaid: amountSchema,
  totalFinanced: amountSchema,
});
export type WireFinancialOffer = z.infer<typeof financialOfferSchema>;

/** GET /financing/simulate/{totalPrice} and GET /financing/{operationIdentifier}. */
export const financialOffersResponseSchema = z.looseObject({
  currency: z.string().min(1),
  financialOffers: z.array(financialOfferSchema),
});

export const agencySchema = z.looseObject({
  id: z.number().int(),
  tradeName: z.string(),
  address: z.string(),
  postalCode: z.string(),
  city: z.string(),
  countryCode: z.string(),
});
export const agenciesResponseSchema = z.array(agencySchema);

export const refundBreakdownSchema = z.looseObject({
  operationId: z.string(),
  totalReserve: moneySchema,
  managementFees: moneySchema,
  fliinowCancellationFee: moneySchema,
  fliinowCancellationFeePercentage: z.number().finite(),
  totalToRefund: moneySchema,
});

export const healthResponseSchema = z.looseObject({
  status: z.string(),
  version: z.string(),
  timestamp: dateTimeSchema,
  partnerCode: z.string(),
});

export const operationStatusResponseSchema = z.looseObject({
  operationId: z.string().min(1),
  status: operationStatusSchema,
  updatedAt: dateTimeSchema,
});

/** GET /operations: a Spring Data page. Spring adds more fields (pageable, sort, empty…); kept loose. */
export function springPageSchema<T extends z.ZodType>(item: T) {
  return z.looseObject({
    content: z.array(item),
    number: z.number().int().nonnegative(),
    size: z.number().int().nonnegative(),
    totalElements: z.number().int().nonnegative(),
    totalPages: z.number().int().nonnegative(),
    first: z.boolean(),
    last: z.boolean(),
  });
}
export const operationsPageSchema = springPageSchema(operationSchema);

export const startFinancingResponseSchema = z.discriminatedUnion("financingStatus", [
  z.looseObject({ financingStatus: z.literal("REQUESTED"), paymentUrl: z.url() }),
  z.looseObject({
    financingStatus: z.enum(["REFUSED", "ERROR"]),
    paymentUrl: z.null(),
    hasAlternativeFinancialOffers: z.boolean(),
  }),
]);

/**
 * Cancel and refund: the success body is "not shown". The sandbox answers the operation; any JSON
 * object (or no body) is accepted, and a status is read when there is one.
 */
export const operationChangeResponseSchema = z.looseObject({
  id: z.string().optional(),
  status: operationStatusSchema.optional(),
});

/** The ack's 200 body is "not shown": anything is accepted. */
export const ackResponseSchema = z.unknown();

// ---------------------------------------------------------------------------------------------
// Requests

const nonBlank = z.string().trim().min(1);
const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http or https URL" });

export const clientSchema = z.object({
  firstName: nonBlank,
  lastName: nonBlank,
  email: z.email(),
  prefix: z.string().regex(/^\+\d{1,4}$/, "must be a country prefix such as +34"),
  phone: z.string().regex(/^\d{4,15}$/, "must be 4 to 15 digits, without the prefix"),
  documentId: nonBlank,
  documentValidityDate: bodyDateSchema,
  // MALE is the one value the spec shows; FEMALE is assumed as its pair (see README).
  gender: z.enum(["MALE", "FEMALE"]),
  birthDate: bodyDateSchema,
  nationality: countryCodeSchema,
  address: nonBlank,
  city: nonBlank,
  postalCode: nonBlank,
  countryCode: countryCodeSchema,
});
export type WireClient = z.infer<typeof clientSchema>;

/*
 * Item fields of flights, hotels and services are "not shown" by the spec, so an item is any JSON
 * object, kept and echoed as sent: requiring field names of our own (a hotel's `checkInDate`, say)
 * would refuse what the real API may accept. The one rule the spec states, at least one item
 * overall, is checked on the body below. Our own bookings send the fields of lib/checkout/booking.ts.
 */
// Three schemas, not one shared: each is its own component in the sandbox's OpenAPI document.
export const flightSchema = z.record(z.string(), z.unknown());
export const hotelSchema = z.record(z.string(), z.unknown());
export const serviceSchema = z.record(z.string(), z.unknown());

export const createOperationRequestSchema = z
  .object({
    externalId: nonBlank.optional(),
    packageName: z.string().optional(),
    packageTravel: z.boolean(),
    travelersNumber: z.number().int().positive(),
    totalPrice: amountSchema.positive().optional(),
    // http(s) only: a javascript: or data: URL here would be followed by a customer's browser.
    successRedirectUrl: httpUrl.optional(),
    errorRedirectUrl: httpUrl.optional(),
    webhookUrl: httpUrl.optional(),
    client: clientSchema,
    flights: z.array(flightSchema).optional(),
    hotels: z.array(hotelSchema).optional(),
    services: z.array(serviceSchema).optional(),
  })
  .refine(
    (body) => [body.flights, body.hotels, body.services].some((items) => Array.isArray(items) && items.length > 0),
    {
      message: "at least one flight, hotel or service is required",
      path: ["flights"],
      // Checked even when other fields are wrong, so one answer names every problem.
      when: () => true,
    },
  );
export type WireCreateOperationRequest = z.infer<typeof createOperationRequestSchema>;

export const startFinancingRequestSchema = z.object({
  operationIdentifier: z.string().min(1),
  financialOfferId: z.number().int(),
});

export const REASON_MAX_LENGTH = 255;
export const reasonSchema = z.string().max(REASON_MAX_LENGTH, `must be at most ${REASON_MAX_LENGTH} characters`);

export const cancelRequestSchema = z.object({ reason: reasonSchema.optional() });

export const refundRequestSchema = z.object({
  agencyCancellationFee: amountSchema.nonnegative().optional(),
  providerCancellationFee: amountSchema.nonnegative().optional(),
  reason: reasonSchema.optional(),
});

export const PAGE_SIZE_MAX = 100;
export const listOperationsQuerySchema = z.object({
  page: z.number().int().nonnegative().optional(),
  size: z.number().int().positive().max(PAGE_SIZE_MAX, `must be at most ${PAGE_SIZE_MAX}`).optional(),
  status: operationStatusSchema.optional(),
  from: queryDateSchema.optional(),
  to: queryDateSchema.optional(),
});

// ---------------------------------------------------------------------------------------------
// Webhooks

/** The body the partner API POSTs to `webhookUrl`, and the body of the ack call (the same three fields). */
export const webhookEventSchema = z.object({
  operationIdentifier: z.string().min(1),
  operationStatus: webhookStatusSchema,
  eventId: z.number().int(),
});
export type WebhookEvent = z.infer<typeof webhookEventSchema>;
export const ackRequestSchema = webhookEventSchema;

// ---------------------------------------------------------------------------------------------
// Errors: the three body formats

export const businessErrorBodySchema = z.looseObject({
  errorCode: z.string().min(1),
  message: z.string(),
  additionalInfo: z.record(z.string(), z.unknown()).optional(),
});
export const generalErrorBodySchema = z.looseObject({
  error: z.string(),
  message: z.string(),
  timestamp: z.string(),
});
export const authErrorBodySchema = z.looseObject({ error_description: z.string() });
