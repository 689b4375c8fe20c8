// Over 400 lines: the sandbox's OpenAPI document, every partner API endpoint with its documented errors, kept whole to read like the spec it mirrors.
import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiResponseObject } from "zod-openapi";
import {
  ERROR_CODES,
  agenciesResponseSchema,
  authErrorBodySchema,
  businessErrorBodySchema,
  cancelRequestSchema,
  countryCodeSchema,
  createOperationRequestSchema,
  createdOperationSchema,
  financialOffersResponseSchema,
  generalErrorBodySchema,
  healthResponseSchema,
  listOperationsQuerySchema,
  operationByExternalIdSchema,
  operationSchema,
  operationStatusResponseSchema,
  operationsPageSchema,
  refundBreakdownSchema,
  refundRequestSchema,
  startFinancingRequestSchema,
  startFinancingResponseSchema,
  webhookEventSchema,
  type ErrorCode,
} from "@/lib/financing/contract";
import { generateDocument, jsonContent, routesToPaths, type OpenApiDocument, type Route } from "@/lib/openapi/document";

/**
 * The partner API as an OpenAPI 3.1 document, generated with zod-openapi from the shared zod
 * contract (its schemas and their metadata) so the sandbox, its contract tests and anyone reading
 * `/sandbox/v1/openapi.json` see one definition. What is written here is what the contract cannot
 * say: the routes, their parameters, which answers each one gives and why.
 */

export type { OpenApiDocument } from "@/lib/openapi/document";

export const DEFAULT_SERVER_URL = "http://localhost:3000/sandbox/v1";
export const DEFAULT_API_KEY_HEADER = "X-Service-API-Key";
export const DEFAULT_AGENCY_HEADER = "X-Service-Agency";

export interface OpenApiOptions {
  serverUrl?: string;
  apiKeyHeader?: string;
  agencyHeader?: string;
  /** The sandbox standing in for the production API (SANDBOX_PRODUCTION_LIKE): its keys are `fk_live_`. */
  productionLike?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Bodies the spec leaves "not shown": the contract accepts anything there, the sandbox answers these.

/** POST /operations/{id}/refund 200: the refunded operation plus the breakdown that was applied. */
export const sandboxRefundResponseSchema = z.intersection(operationSchema, z.looseObject({ refund: refundBreakdownSchema })).meta({
  id: "RefundResponse",
  description: "The refunded operation with the applied breakdown in `refund` (sandbox choice: the spec does not show this body).",
});

/** PUT /operations/webhook-events/ack 200. */
export const sandboxAckResponseSchema = z
  .object({ acknowledged: z.literal(true) })
  .meta({ id: "AckResponse", description: "Sandbox choice: the spec does not show this body." });

// ---------------------------------------------------------------------------------------------
// Headers

const etagHeader = z
  .string()
  .regex(/^"[A-Z_]+-[0-9]+"$/)
  .meta({
    header: {
      id: "ETag",
      description: "The status, a hyphen and the update time in epoch seconds, in quotation marks.",
      example: '"CONFIRMED-1718000000"',
    },
  });
const cacheControlHeader = z.literal("max-age=60, must-revalidate").meta({
  header: { id: "CacheControl", description: "Status answers may be cached for 60 seconds and must be revalidated." },
});
const retryAfterHeader = z
  .string()
  .regex(/^[0-9]+$/)
  .optional()
  .meta({ header: { id: "RetryAfter", description: "Seconds to wait before retrying.", required: false } });

// ---------------------------------------------------------------------------------------------
// Error answers

const anyErrorFormat = z.union([businessErrorBodySchema, generalErrorBodySchema]);

type Reason = [ErrorCode, string];

/**
 * A business error response. The error codes go in the description (and `x-error-codes`), not in
 * the schema: the spec does not say that an endpoint can only ever answer those codes.
 */
function businessErrorResponse(
  status: number,
  summary: string,
  reasons: Reason[],
  options: { generalFormatToo?: string } = {},
): ZodOpenApiResponseObject {
  for (const [code] of reasons) {
    // Keeps this document in step with the contract's code → status table.
    if (!(ERROR_CODES[code] as readonly number[]).includes(status)) {
      throw new Error(`Error code ${code} is not a ${status} in the contract`);
    }
  }
  const lines = [summary, "", ...reasons.map(([code, when]) => `- \`${code}\`: ${when}`)];
  if (options.generalFormatToo) lines.push(`- General format (\`error\`, \`message\`, \`timestamp\`): ${options.generalFormatToo}`);
  return {
    description: lines.join("\n"),
    "x-error-codes": [...new Set(reasons.map(([code]) => code))],
    content: jsonContent(options.generalFormatToo ? anyErrorFormat : businessErrorBodySchema),
  };
}

const AGENCY_HEADER_400: Reason = ["VALIDATION_ERROR", "the agency header is missing (management group key) or is not an agency id."];
const AGENCY_HEADER_403 =
  "the agency header names an agency the key cannot act for (another account, or not an active agency of the group).";
const ACCESS_DENIED: Reason = ["OPERATION_ACCESS_DENIED", "the operation belongs to another account."];
const NOT_FOUND: Reason = ["OPERATION_NOT_FOUND", "no operation with this identifier."];

const forbidden = (reasons: Reason[]) => businessErrorResponse(403, "No permission.", reasons, { generalFormatToo: AGENCY_HEADER_403 });
const notFound = (reasons: Reason[] = [NOT_FOUND]) => businessErrorResponse(404, "Not found.", reasons);
const badRequest = (reasons: Reason[]) => businessErrorResponse(400, "Invalid or missing data.", [...reasons, AGENCY_HEADER_400]);

/** Answers any endpoint can give; the spec's table lists them without tying them to endpoints. */
const COMMON_RESPONSES: Record<string, ZodOpenApiResponseObject> = {
  "401": {
    id: "Unauthorized",
    description: "Missing or invalid API key (a production key in the sandbox included).",
    content: jsonContent(authErrorBodySchema),
  },
  "429": {
    id: "TooManyRequests",
    description: "Rate limit exceeded: slow down.",
    headers: z.object({ "Retry-After": retryAfterHeader }),
    content: jsonContent(anyErrorFormat),
  },
  "500": {
    id: "InternalError",
    description: "Internal error (`INTERNAL_ERROR` in the business format, or the general format): retry with exponential backoff.",
    "x-error-codes": ["INTERNAL_ERROR"],
    content: jsonContent(anyErrorFormat),
  },
  "503": {
    id: "ServiceUnavailable",
    description: "Temporarily unavailable (in the sandbox, an injected fault): retry with exponential backoff.",
    content: jsonContent(anyErrorFormat),
  },
};

/** Answered to any request whose body is over the sandbox's limit, before it is read. */
const PAYLOAD_TOO_LARGE: ZodOpenApiResponseObject = {
  id: "PayloadTooLarge",
  description: "Sandbox limit: a request body over 64 KB is refused before it is read (the spec states no limit).",
  content: jsonContent(generalErrorBodySchema),
};

// ---------------------------------------------------------------------------------------------
// Building blocks

const okJson = (description: string, schema: z.ZodType): ZodOpenApiResponseObject => ({ description, content: jsonContent(schema) });
const jsonBody = (schema: z.ZodType, required: boolean, description?: string) => ({
  required,
  ...(description ? { description } : {}),
  content: jsonContent(schema),
});

/** A path or query parameter's description goes on the parameter, not into its schema. */
const param = <T extends z.ZodType>(schema: T, description: string) => schema.meta({ param: { description } });

const operationIdParam = () => param(operationSchema.shape.id, "The operation's `id`.");
const statusHeaders = z.object({ ETag: etagHeader, "Cache-Control": cacheControlHeader });

interface Endpoint extends Route {
  /** GET /agencies is the one endpoint that does not take the agency header. */
  agencyExempt?: boolean;
}

const get = (path: string, operation: ZodOpenApiOperationObject): Endpoint => ({ method: "get", path, operation });
const post = (path: string, operation: ZodOpenApiOperationObject): Endpoint => ({ method: "post", path, operation });
const put = (path: string, operation: ZodOpenApiOperationObject): Endpoint => ({ method: "put", path, operation });

function endpoints(): Endpoint[] {
  return [
    get("/health", {
      operationId: "getHealth",
      summary: "Health check",
      description: "Connectivity check, validity check of the key, clock comparison.",
      tags: ["Health"],
      responses: {
        "200": okJson("The service is up.", healthResponseSchema),
        "400": badRequest([]),
        "403": forbidden([]),
        "422": businessErrorResponse(422, "Data conflict.", [["DATA_INTEGRITY_ERROR", "conflict with existing data."]]),
      },
    }),
    get("/financing/simulate/{totalPrice}", {
      operationId: "simulateFinancing",
      summary: "Simulate financing offers for an amount",
      description: "Read-only, indicative: no operation is created. Availability and terms depend on the partner's configured markets.",
      tags: ["Financing"],
      requestParams: {
        path: z.object({
          totalPrice: param(
            z.number().positive(),
            "The amount to finance; greater than zero. The advertised standard EUR range is 60 to 5,000.",
          ),
        }),
        query: z.object({
          countryCode: param(
            countryCodeSchema.optional(),
            "The customer's residence country (ISO 3166-1 alpha-3). Spain (ESP) when omitted.",
          ),
        }),
      },
      responses: {
        "200": okJson("Indicative offers.", financialOffersResponseSchema),
        "400": badRequest([["VALIDATION_ERROR", "the amount is not a number greater than zero, or countryCode is malformed."]]),
        "403": forbidden([]),
        "422": businessErrorResponse(422, "No financing available.", [
          ["NO_FINANCIAL_COMPANIES_CONFIGURED", "no financing options are configured for the agency."],
          ["DATA_INTEGRITY_ERROR", "conflict with existing data."],
        ]),
      },
    }),
    post("/operations", {
      operationId: "createOperation",
      summary: "Create a financing operation",
      description: "Idempotent per `externalId`: repeating it returns the existing operation, with 200 instead of 201.",
      tags: ["Operations"],
      requestBody: jsonBody(createOperationRequestSchema, true),
      responses: {
        "201": okJson("Created, in status GENERATED.", createdOperationSchema),
        "200": okJson("An operation with this externalId already exists: it is returned unchanged.", createdOperationSchema),
        "400": badRequest([["VALIDATION_ERROR", "invalid or missing data in the body (details in `additionalInfo.fields`)."]]),
        "403": forbidden([]),
      },
    }),
    get("/operations", {
      operationId: "listOperations",
      summary: "List operations",
      tags: ["Operations"],
      // Descriptions come from the contract's metadata on each field.
      requestParams: { query: listOperationsQuerySchema },
      responses: {
        "200": okJson("A page of operations.", operationsPageSchema),
        "400": badRequest([["VALIDATION_ERROR", "a query parameter is malformed or out of range."]]),
        "403": forbidden([]),
      },
    }),
    get("/operations/by-external-id/{externalId}", {
      operationId: "getOperationByExternalId",
      summary: "Find an operation by the partner's reference",
      tags: ["Operations"],
      requestParams: {
        path: z.object({
          externalId: param(createOperationRequestSchema.shape.externalId.unwrap(), "The partner's reference given at creation."),
        }),
      },
      responses: {
        "200": okJson("The operation.", operationByExternalIdSchema),
        "400": badRequest([]),
        "403": forbidden([ACCESS_DENIED]),
        "404": notFound([["OPERATION_NOT_FOUND", "no operation of this account has this externalId."]]),
      },
    }),
    get("/financing/{operationIdentifier}", {
      operationId: "getFinancialOffers",
      summary: "Financing offers an operation is eligible for",
      description: "Same shape as the simulation. An offer's `id` is the `financialOfferId` of POST /financing.",
      tags: ["Financing"],
      requestParams: { path: z.object({ operationIdentifier: operationIdParam() }) },
      responses: {
        "200": okJson("The eligible offers.", financialOffersResponseSchema),
        "400": badRequest([]),
        "403": forbidden([ACCESS_DENIED]),
        "404": notFound(),
        "422": businessErrorResponse(422, "Not eligible.", [
          ["NOT_ELIGIBLE_FOR_FINANCING", "the operation is not eligible for financing."],
          ["NO_FINANCIAL_COMPANIES_CONFIGURED", "no financing options are configured for the agency."],
        ]),
      },
    }),
    post("/financing", {
      operationId: "startFinancing",
      summary: "Start financing with a chosen offer",
      description:
        "When refused with `hasAlternativeFinancialOffers: true`, fetch GET /financing/{operationIdentifier} again and offer another option.",
      tags: ["Financing"],
      requestBody: jsonBody(startFinancingRequestSchema, true),
      responses: {
        "200": okJson("The outcome of the request to the provider.", startFinancingResponseSchema),
        "400": badRequest([["VALIDATION_ERROR", "invalid or missing operationIdentifier or financialOfferId."]]),
        "403": forbidden([ACCESS_DENIED]),
        "404": notFound(),
        "409": businessErrorResponse(409, "Operation not in a valid state.", [
          ["NOT_ACTIVE_OPERATION", "the operation can no longer start financing."],
        ]),
        "422": businessErrorResponse(422, "Offer not available.", [
          ["NOT_ELIGIBLE_FINANCIAL_OFFER", "the offer is not one the operation is eligible for."],
        ]),
      },
    }),
    get("/operations/{operationIdentifier}/status", {
      operationId: "getOperationStatus",
      summary: "Current status of an operation",
      description: "Verify the status with this call after any redirect or webhook. Conditional with If-None-Match.",
      tags: ["Operations"],
      requestParams: {
        path: z.object({ operationIdentifier: operationIdParam() }),
        header: z.object({
          "If-None-Match": param(z.string().optional(), "An ETag from an earlier answer: 304 without a body when it is still current."),
        }),
      },
      responses: {
        "200": { description: "The status.", headers: statusHeaders, content: jsonContent(operationStatusResponseSchema) },
        "304": { description: "Not modified: If-None-Match equals the current ETag. No body.", headers: statusHeaders },
        "400": badRequest([]),
        "403": forbidden([ACCESS_DENIED]),
        "404": notFound(),
      },
    }),
    post("/operations/{id}/cancel", {
      operationId: "cancelOperation",
      summary: "Cancel an operation that is not yet signed",
      description:
        "Valid for GENERATED, PENDING and ERROR; the operation becomes CANCELLED. No provider is contacted and no money moves. A CANCELLED webhook follows when the operation has a webhookUrl.",
      tags: ["Operations"],
      requestParams: { path: z.object({ id: operationIdParam() }) },
      requestBody: jsonBody(cancelRequestSchema, false, "Optional; the reason is kept in the operation history."),
      responses: {
        "200": okJson("Cancelled: the operation (sandbox choice: the spec does not show this body).", operationSchema),
        "400": badRequest([
          ["OPERATION_NOT_CANCELLABLE", "the operation is in another status; `additionalInfo.operationStatus` carries it."],
          ["VALIDATION_ERROR", "the reason is longer than 255 characters or the body is malformed."],
        ]),
        "403": forbidden([ACCESS_DENIED]),
        "404": notFound(),
      },
    }),
    get("/operations/{id}/refund/details", {
      operationId: "getRefundDetails",
      summary: "Preview the refund of a confirmed operation",
      tags: ["Refunds"],
      requestParams: { path: z.object({ id: operationIdParam() }) },
      responses: {
        "200": okJson("What the customer would get back if the operation were refunded now.", refundBreakdownSchema),
        "400": badRequest([["OPERATION_NOT_REFUNDABLE", "the operation is not CONFIRMED."]]),
        "403": forbidden([ACCESS_DENIED]),
        "404": notFound(),
      },
    }),
    post("/operations/{id}/refund", {
      operationId: "refundOperation",
      summary: "Refund a confirmed operation",
      description:
        "Refunds through the finance provider, records the charges in the monthly invoice and leaves the operation REFUNDED; a REFUNDED webhook follows when the operation has a webhookUrl.",
      tags: ["Refunds"],
      requestParams: { path: z.object({ id: operationIdParam() }) },
      requestBody: jsonBody(refundRequestSchema, false, "Optional; charges default to 0, the reason is kept in the history."),
      responses: {
        "200": okJson("Refunded.", sandboxRefundResponseSchema),
        "400": badRequest([
          ["OPERATION_NOT_REFUNDABLE", "the operation is not CONFIRMED."],
          ["VALIDATION_ERROR", "a charge is negative or not a number, or the reason is longer than 255 characters."],
        ]),
        "403": forbidden([ACCESS_DENIED]),
        "404": notFound(),
        "422": businessErrorResponse(422, "Refund rejected.", [
          ["OPERATION_NOT_REFUNDABLE", "the provider rejected the refund; nothing changed."],
        ]),
      },
    }),
    {
      ...get("/agencies", {
        operationId: "listAgencies",
        summary: "The agencies of a management group",
        description: "Management group keys only, and without the agency header. The ids are the valid agency header values elsewhere.",
        tags: ["Agencies"],
        responses: {
          "200": okJson("The group's active agencies, sorted by id.", agenciesResponseSchema),
          "403": { description: "The key is not a management group key.", content: jsonContent(anyErrorFormat) },
        },
      }),
      agencyExempt: true,
    },
    put("/operations/webhook-events/ack", {
      operationId: "acknowledgeWebhookEvent",
      summary: "Acknowledge a webhook event",
      description:
        "Send back the three fields received. Unacknowledged events are redelivered. A management group key names the agency that owns the operation.",
      tags: ["Webhooks"],
      requestBody: jsonBody(webhookEventSchema, true),
      responses: {
        "200": okJson("Acknowledged (acknowledging again is also a success).", sandboxAckResponseSchema),
        "400": badRequest([["VALIDATION_ERROR", "invalid or missing fields."]]),
        "403": forbidden([ACCESS_DENIED, ["WEBHOOK_EVENT_OPERATION_MISMATCH", "the event is not an event of this operation."]]),
        "404": notFound([NOT_FOUND, ["WEBHOOK_EVENT_NOT_FOUND", "no event with this eventId."]]),
        "409": businessErrorResponse(409, "The event cannot be acknowledged.", [
          ["WEBHOOK_EVENT_STATUS_MISMATCH", "operationStatus is not the status the event carried."],
          ["WEBHOOK_EVENT_NOT_ACKNOWLEDGEABLE", "the event can no longer be acknowledged (for example superseded by a later one)."],
        ]),
      },
    }),
  ];
}

const TAGS = [
  { name: "Health", description: "Connectivity and key check." },
  { name: "Financing", description: "Offers and starting financing." },
  { name: "Operations", description: "Financing operations." },
  { name: "Refunds", description: "Refund of confirmed operations." },
  { name: "Agencies", description: "Management groups." },
  { name: "Webhooks", description: "Acknowledging notifications." },
];

/** The document's introduction; the keys it takes depend on the mode it runs in. */
const description = (productionLike: boolean) =>
  [
    "The travel financing partner API, as served by this sandbox. Generated from the shared zod contract.",
    "",
    "- Request body dates are dd-MM-yyyy; query dates yyyy-MM-dd; response timestamps ISO 8601; country codes ISO 3166-1 alpha-3.",
    productionLike
      ? "- Every request carries the API key header. This sandbox stands in for production: its keys start with `fk_live_`; `fk_test_` keys are refused (401)."
      : "- Every request carries the API key header. Sandbox keys start with `fk_test_`; `fk_live_` keys are refused (401).",
    "- A management group key also sends the agency header (an id from GET /agencies) on every other endpoint; an agency key may omit it.",
    "- Error bodies come in three formats: business (`errorCode`, `message`, optional `additionalInfo`), general (`error`, `message`, `timestamp`) and authentication (`error_description`).",
    "- An unknown route answers 404 in the general format.",
  ].join("\n");

export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const serverUrl = options.serverUrl ?? DEFAULT_SERVER_URL;
  const apiKeyHeader = options.apiKeyHeader ?? DEFAULT_API_KEY_HEADER;
  const agencyHeader = options.agencyHeader ?? DEFAULT_AGENCY_HEADER;

  // Built per document: the header's name is an option.
  const agencyParameter = z
    .string()
    .regex(/^[0-9]+$/)
    .optional()
    .meta({
      param: {
        id: "Agency",
        name: agencyHeader,
        in: "header",
        required: false,
        description:
          "The id of the agency acted for. Required with a management group key (an id from GET /agencies); an agency key may omit it or send its own id.",
      },
    });

  const routes = endpoints().map(({ agencyExempt, ...route }) => ({
    ...route,
    operation: {
      ...route.operation,
      ...(agencyExempt ? {} : { parameters: [agencyParameter] }),
      responses: {
        ...route.operation.responses,
        ...COMMON_RESPONSES,
        ...("requestBody" in route.operation ? { "413": PAYLOAD_TOO_LARGE } : {}),
      },
    },
  }));

  return generateDocument({
    openapi: "3.1.0",
    info: { title: "Travel Financing Partner API (sandbox)", version: "1.8.0", description: description(options.productionLike ?? false) },
    servers: [{ url: serverUrl, description: "Sandbox" }],
    security: [{ ApiKey: [] }],
    tags: TAGS,
    paths: routesToPaths(routes),
    webhooks: {
      operationStatus: {
        post: {
          operationId: "operationStatusWebhook",
          summary: "Operation status notification",
          description:
            "POSTed to the operation's webhookUrl when it reaches CONFIRMED, REFUSED, EXPIRED, CANCELLED, REFUNDED or ERROR. Redelivered until acknowledged with PUT /operations/webhook-events/ack: a 2xx alone does not stop redeliveries. Confirm the status with GET /operations/{operationIdentifier}/status.",
          // The service sends no API key to the partner, and the spec shows no signature.
          security: [],
          requestBody: jsonBody(webhookEventSchema, true),
          responses: { "2XX": { description: "Received." } },
        },
      },
    },
    components: {
      securitySchemes: {
        ApiKey: {
          type: "apiKey",
          in: "header",
          name: apiKeyHeader,
          description: "The partner's key: `fk_test_…` in the sandbox, `fk_live_…` in production.",
        },
      },
    },
  });
}
