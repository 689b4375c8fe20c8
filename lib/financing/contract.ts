// Over 400 lines: the partner API's whole wire contract (docs/partner-api.md) as zod schemas, kept whole as its one source of truth for the client and the sandbox.
import { z } from "zod";
import { FINANCING_STATUSES, OPERATION_STATUSES, WEBHOOK_STATUSES } from "@/lib/vocabulary/partner-api";
import { safeText, TEXT_PROBLEM_MESSAGES, textProblem } from "@/lib/validation/text";
import { REASON_MAX_LENGTH } from "./limits";

export { REASON_MAX_LENGTH };

/**
 * The partner API's wire contract (docs/partner-api.md), as zod schemas: the one source of truth
 * for every request, response and error body, shared by the client here and by the sandbox.
 * These are the shapes on the wire (body dates dd-MM-yyyy, amounts as JSON numbers); the client
 * maps them into the app's own types (`types.ts`).
 *
 * Where the spec says "not shown", the choice made is commented and documented in docs/partner-api.md.
 */

// ---------------------------------------------------------------------------------------------
// Enumerations

/** Every operation status, FINISHED included (one of the spec's two lists has it). */
// The status lists are the database's column types too: they live under the schema, here re-exported.
export { FINANCING_STATUSES, OPERATION_STATUSES, WEBHOOK_STATUSES };
export const operationStatusSchema = z.enum(OPERATION_STATUSES);
export type OperationStatus = z.infer<typeof operationStatusSchema>;

/** The statuses a webhook is sent for ("final or actionable"). */
export const webhookStatusSchema = z.enum(WEBHOOK_STATUSES);
export type WebhookStatus = z.infer<typeof webhookStatusSchema>;

/** The statuses POST /operations/{id}/cancel is valid for. */
export const CANCELLABLE_STATUSES = ["GENERATED", "PENDING", "ERROR"] as const satisfies readonly OperationStatus[];

/** The statuses whose outcome can still change for the customer (before the provider's decision). */
export const OPEN_STATUSES = ["GENERATED", "PENDING", "CLIENT_REQUESTED", "PENDING_RESPONSE"] as const satisfies readonly OperationStatus[];

export function isCancellable(status: string): boolean {
  return CANCELLABLE_STATUSES.some((cancellable) => cancellable === status);
}

export function isOpenStatus(status: string | null): boolean {
  return OPEN_STATUSES.some((open) => open === status);
}

/** `financingStatus` of POST /financing: the outcome of that call, not the operation status. */
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

/*
 * Request text: no control characters nor lone surrogates (lib/validation/text.ts), checked before
 * trimming. The spec shows no such rule; the sandbox refuses them as VALIDATION_ERROR naming the
 * field, and the app never sends them.
 */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const plain = () => z.string().check(safeText());
const nonBlank = plain().trim().min(1);
/** An amount sent to the API: in cents still an exact whole number (1e300 is no price). */
const requestAmount = amountSchema.refine((amount) => Number.isSafeInteger(Math.round(amount * 100)), "is too large");
const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http or https URL" }).check(safeText());

export const clientSchema = z.object({
  firstName: nonBlank,
  lastName: nonBlank,
  email: z.email(),
  prefix: z.string().regex(/^\+\d{1,4}$/, "must be a country prefix such as +34"),
  phone: z.string().regex(/^\d{4,15}$/, "must be 4 to 15 digits, without the prefix"),
  documentId: nonBlank,
  documentValidityDate: bodyDateSchema,
  // MALE is the one value the spec shows; FEMALE is assumed as its pair (see docs/partner-api.md).
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
 * overall, is checked on the body below. Our own bookings send the fields of lib/checkout/session/booking.ts.
 */
// Three schemas, not one shared: each is its own component in the sandbox's OpenAPI document.
export const flightSchema = freeFormItem();
export const hotelSchema = freeFormItem();
export const serviceSchema = freeFormItem();

/**
 * How deep an item's JSON may nest. The spec shows no limit; without one, 3,000 nested arrays (6 KB)
 * overflowed the stack of the check below (a 500), and such JSON is past what PostgreSQL stores.
 */
export const MAX_ITEM_DEPTH = 64;

/**
 * Any JSON object whose text (keys and values, at any depth up to MAX_ITEM_DEPTH) is safe text:
 * items are kept as JSON, where a NUL or a lone surrogate cannot be stored, and no partner means to
 * send either.
 */
function freeFormItem() {
  return z.record(z.string(), z.unknown()).check(
    z.superRefine((item, ctx) => {
      const walk = (value: unknown, path: (string | number)[]): void => {
        if (path.length > MAX_ITEM_DEPTH && value !== null && typeof value === "object") {
          ctx.addIssue({ code: "custom", message: `is nested more than ${MAX_ITEM_DEPTH} levels deep`, path, input: undefined });
          return;
        }
        if (typeof value === "string") {
          const problem = textProblem(value, { multiline: true });
          if (problem) ctx.addIssue({ code: "custom", message: TEXT_PROBLEM_MESSAGES[problem], path, input: value });
        } else if (Array.isArray(value)) {
          value.forEach((entry, index) => walk(entry, [...path, index]));
        } else if (value !== null && typeof value === "object") {
          for (const [key, entry] of Object.entries(value)) {
            const problem = textProblem(key);
            if (problem)
              ctx.addIssue({ code: "custom", message: `key ${TEXT_PROBLEM_MESSAGES[problem]}`, path: [...path, key], input: key });
            walk(entry, [...path, key]);
          }
        }
      };
      walk(item, []);
    }),
  );
}

export const createOperationRequestSchema = z
  .object({
    externalId: nonBlank.optional(),
    packageName: plain().optional(),
    packageTravel: z.boolean(),
    travelersNumber: z.number().int().positive(),
    totalPrice: requestAmount.positive().optional(),
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
    // Run on any input (see `when`), a JSON null or array included: only an object has items.
    (body: unknown) =>
      !isRecord(body) || [body.flights, body.hotels, body.services].some((items) => Array.isArray(items) && items.length > 0),
    {
      message: "at least one flight, hotel or service is required",
      path: ["flights"],
      // Checked even when other fields are wrong, so one answer names every problem.
      when: () => true,
    },
  );
export type WireCreateOperationRequest = z.infer<typeof createOperationRequestSchema>;

export const startFinancingRequestSchema = z.object({
  operationIdentifier: plain().min(1),
  financialOfferId: z.number().int(),
});

export const reasonSchema = z
  .string()
  .check(safeText({ multiline: true }))
  .max(REASON_MAX_LENGTH, `must be at most ${REASON_MAX_LENGTH} characters`);

export const cancelRequestSchema = z.object({ reason: reasonSchema.optional() });

export const refundRequestSchema = z.object({
  agencyCancellationFee: requestAmount.nonnegative().optional(),
  providerCancellationFee: requestAmount.nonnegative().optional(),
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
  operationIdentifier: plain().min(1).max(200),
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

// ---------------------------------------------------------------------------------------------
// Documentation metadata
//
// What the OpenAPI documents generated from this contract say about its schemas (`lib/openapi`,
// the sandbox's `/sandbox/v1/openapi.json`): an `id` makes a schema a named component, the other
// keys are JSON Schema keywords written into the generated schema. Registered on the schemas
// themselves in zod's global registry (what `.meta()` does on a copy), in one block so the
// definitions above stay as they are; metadata does not change what a schema accepts.
//
// `.refine` checks have no JSON Schema form, so what they mean is written here as keywords
// (pattern, format, anyOf) for readers and for validators of the documents.

const describe = (schema: z.ZodType, meta: z.GlobalMeta) => z.globalRegistry.add(schema, meta);

describe(bodyDateSchema, { pattern: BODY_DATE_PATTERN.source, description: "A calendar date as dd-MM-yyyy." });
describe(queryDateSchema, { pattern: QUERY_DATE_PATTERN.source, format: "date", description: "A calendar date as yyyy-MM-dd." });
describe(dateTimeSchema, { format: "date-time", description: "ISO 8601 date-time.", examples: ["2024-06-10T08:30:00Z"] });

describe(operationStatusSchema, {
  id: "OperationStatus",
  description: "FINISHED appears in only one of the reference's two status lists; it is kept.",
});
describe(webhookStatusSchema, { id: "WebhookStatus", description: "The final or actionable statuses a webhook is sent for." });
describe(moneySchema, {
  id: "Money",
  description: "An amount with its currency (EUR in practice).",
  examples: [{ amount: 1200, currency: "EUR" }],
});

describe(operationSchema, { id: "Operation", description: "A financing operation. More fields may appear." });
describe(createdOperationSchema, {
  id: "CreatedOperation",
  description: "POST /operations: the created operation, or the existing one for a repeated externalId.",
});
describe(operationByExternalIdSchema, { id: "OperationByExternalId" });
describe(financialOfferSchema, { id: "FinancialOffer", description: "An installment plan. Offers may carry more fields." });
describe(financialOffersResponseSchema, { id: "FinancialOffersResponse" });
describe(agencySchema, { id: "Agency" });
describe(agenciesResponseSchema, { id: "AgencyList", description: "The group's active agencies, sorted by id." });
describe(refundBreakdownSchema, {
  id: "RefundBreakdown",
  description:
    "totalToRefund already deducts the non-refundable fees and the service's cancellation fee; agency and provider cancellation charges lower it by their value.",
});
describe(healthResponseSchema, { id: "HealthResponse" });
describe(operationStatusResponseSchema, { id: "OperationStatusResponse" });
describe(operationsPageSchema, {
  id: "OperationsPage",
  description: "A Spring Data page of operations; Spring's other page fields may appear.",
});
describe(startFinancingResponseSchema, {
  id: "StartFinancingResponse",
  description:
    "REQUESTED with the provider checkout address, or REFUSED/ERROR with a null paymentUrl. financingStatus is the outcome of this call, not the operation status.",
});

describe(createOperationRequestSchema, {
  id: "CreateOperationRequest",
  description: "At least one flight, hotel or service is required.",
  anyOf: ["flights", "hotels", "services"].map((list) => ({ required: [list], properties: { [list]: { minItems: 1 } } })),
});
describe(clientSchema, { id: "Client", description: "The customer; created in the same request." });
const ITEM_FIELDS = "Item fields are not shown by the spec: any JSON object is accepted and kept as sent.";
describe(flightSchema, { id: "Flight", description: ITEM_FIELDS });
describe(hotelSchema, { id: "Hotel", description: ITEM_FIELDS });
describe(serviceSchema, { id: "Service", description: ITEM_FIELDS });
describe(startFinancingRequestSchema, { id: "StartFinancingRequest" });
describe(cancelRequestSchema, { id: "CancelRequest" });
describe(refundRequestSchema, { id: "RefundRequest", description: "Both charges default to 0." });
describe(webhookEventSchema, { id: "WebhookEvent", description: "Sent to webhookUrl, and sent back unchanged to acknowledge it." });

describe(listOperationsQuerySchema.shape.page, { description: "Page number, from 0." });
describe(listOperationsQuerySchema.shape.size, { description: `Operations per page, at most ${PAGE_SIZE_MAX}.` });
describe(listOperationsQuerySchema.shape.status, { description: "Only operations in this status." });
describe(listOperationsQuerySchema.shape.from, { description: "Only operations from this date (yyyy-MM-dd)." });
describe(listOperationsQuerySchema.shape.to, { description: "Only operations up to this date (yyyy-MM-dd)." });

describe(businessErrorBodySchema, {
  id: "BusinessError",
  description: "Business error format: errorCode and message, sometimes additionalInfo.",
});
describe(generalErrorBodySchema, {
  id: "GeneralError",
  description: "General error format (unknown routes, framework and gateway errors).",
});
describe(authErrorBodySchema, { id: "AuthError", description: "Authentication error format (401 only)." });
