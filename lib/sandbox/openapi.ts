import { z } from "zod";
import {
  BODY_DATE_PATTERN,
  ERROR_CODES,
  QUERY_DATE_PATTERN,
  agenciesResponseSchema,
  agencySchema,
  authErrorBodySchema,
  bodyDateSchema,
  businessErrorBodySchema,
  cancelRequestSchema,
  clientSchema,
  countryCodeSchema,
  createOperationRequestSchema,
  createdOperationSchema,
  dateTimeSchema,
  financialOfferSchema,
  financialOffersResponseSchema,
  flightSchema,
  generalErrorBodySchema,
  healthResponseSchema,
  hotelSchema,
  listOperationsQuerySchema,
  moneySchema,
  operationByExternalIdSchema,
  operationSchema,
  operationStatusResponseSchema,
  operationStatusSchema,
  operationsPageSchema,
  queryDateSchema,
  refundBreakdownSchema,
  refundRequestSchema,
  serviceSchema,
  startFinancingRequestSchema,
  startFinancingResponseSchema,
  webhookEventSchema,
  webhookStatusSchema,
  type ErrorCode,
} from "@/lib/financing/contract";

/**
 * The partner API as an OpenAPI 3.1 document, generated from the shared zod contract so the
 * sandbox, its contract tests and anyone reading `/sandbox/v1/openapi.json` see one definition.
 */

export const DEFAULT_SERVER_URL = "http://localhost:3000/sandbox/v1";
export const DEFAULT_API_KEY_HEADER = "X-Service-API-Key";
export const DEFAULT_AGENCY_HEADER = "X-Service-Agency";

export interface OpenApiOptions {
  serverUrl?: string;
  apiKeyHeader?: string;
  agencyHeader?: string;
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers: { url: string; description: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, JsonObject>>;
  webhooks: Record<string, Record<string, JsonObject>>;
  components: {
    schemas: Record<string, JsonObject>;
    parameters: Record<string, JsonObject>;
    headers: Record<string, JsonObject>;
    responses: Record<string, JsonObject>;
    securitySchemes: Record<string, JsonObject>;
  };
}

// ---------------------------------------------------------------------------------------------
// Bodies the spec leaves "not shown": the contract accepts anything there, the sandbox answers these.

/** POST /operations/{id}/refund 200: the refunded operation plus the breakdown that was applied. */
export const sandboxRefundResponseSchema = z.intersection(operationSchema, z.looseObject({ refund: refundBreakdownSchema }));

/** PUT /operations/webhook-events/ack 200. */
export const sandboxAckResponseSchema = z.object({ acknowledged: z.literal(true) });

// ---------------------------------------------------------------------------------------------
// Schemas

interface ComponentMeta {
  id: string;
  description?: string;
}

/*
 * Responses are converted as zod "output" (what the sandbox emits after its own parsing, so a plain
 * z.object is closed), requests as "input" (what the sandbox accepts: a plain z.object strips
 * unknown keys, so they are allowed). The two sets must not share a schema.
 */
const RESPONSE_COMPONENTS: [z.ZodType, ComponentMeta][] = [
  [moneySchema, { id: "Money", description: "An amount with its currency (EUR in practice)." }],
  [
    operationStatusSchema,
    {
      id: "OperationStatus",
      description: "FINISHED appears in only one of the reference's two status lists; it is kept.",
    },
  ],
  [operationSchema, { id: "Operation", description: "A financing operation. More fields may appear." }],
  [
    createdOperationSchema,
    { id: "CreatedOperation", description: "POST /operations: the created operation, or the existing one for a repeated externalId." },
  ],
  [operationByExternalIdSchema, { id: "OperationByExternalId" }],
  [financialOfferSchema, { id: "FinancialOffer", description: "An installment plan. Offers may carry more fields." }],
  [financialOffersResponseSchema, { id: "FinancialOffersResponse" }],
  [agencySchema, { id: "Agency" }],
  [agenciesResponseSchema, { id: "AgencyList", description: "The group's active agencies, sorted by id." }],
  [
    refundBreakdownSchema,
    {
      id: "RefundBreakdown",
      description:
        "totalToRefund already deducts the non-refundable fees and the service's cancellation fee; agency and provider cancellation charges lower it by their value.",
    },
  ],
  [
    sandboxRefundResponseSchema,
    { id: "RefundResponse", description: "The refunded operation with the applied breakdown in `refund` (sandbox choice: the spec does not show this body)." },
  ],
  [healthResponseSchema, { id: "HealthResponse" }],
  [operationStatusResponseSchema, { id: "OperationStatusResponse" }],
  [operationsPageSchema, { id: "OperationsPage", description: "A Spring Data page of operations; Spring's other page fields may appear." }],
  [
    startFinancingResponseSchema,
    {
      id: "StartFinancingResponse",
      description:
        "REQUESTED with the provider checkout address, or REFUSED/ERROR with a null paymentUrl. financingStatus is the outcome of this call, not the operation status.",
    },
  ],
  [sandboxAckResponseSchema, { id: "AckResponse", description: "Sandbox choice: the spec does not show this body." }],
  [businessErrorBodySchema, { id: "BusinessError", description: "Business error format: errorCode and message, sometimes additionalInfo." }],
  [generalErrorBodySchema, { id: "GeneralError", description: "General error format (unknown routes, framework and gateway errors)." }],
  [authErrorBodySchema, { id: "AuthError", description: "Authentication error format (401 only)." }],
];

const REQUEST_COMPONENTS: [z.ZodType, ComponentMeta][] = [
  [
    createOperationRequestSchema,
    { id: "CreateOperationRequest", description: "At least one flight, hotel or service is required." },
  ],
  [clientSchema, { id: "Client", description: "The customer; created in the same request." }],
  [flightSchema, { id: "Flight", description: "Item fields are not shown by the spec: any JSON object is accepted and kept as sent." }],
  [hotelSchema, { id: "Hotel", description: "Item fields are not shown by the spec: any JSON object is accepted and kept as sent." }],
  [serviceSchema, { id: "Service", description: "Item fields are not shown by the spec: any JSON object is accepted and kept as sent." }],
  [startFinancingRequestSchema, { id: "StartFinancingRequest" }],
  [cancelRequestSchema, { id: "CancelRequest" }],
  [refundRequestSchema, { id: "RefundRequest", description: "Both charges default to 0." }],
  [webhookEventSchema, { id: "WebhookEvent", description: "Sent to webhookUrl, and sent back unchanged to acknowledge it." }],
  [webhookStatusSchema, { id: "WebhookStatus", description: "The final or actionable statuses a webhook is sent for." }],
];

type Io = "input" | "output";

/**
 * `.refine` checks have no JSON Schema form, so zod drops them silently; this puts back what the
 * refinement meant, and only where zod left the keyword empty (a future zod may emit its own).
 */
function restoreRefinements(ctx: { zodSchema: unknown; jsonSchema: Record<string, unknown> }): void {
  const { zodSchema: schema, jsonSchema: json } = ctx;
  const setDefault = (key: string, value: unknown) => {
    if (json[key] === undefined) json[key] = value;
  };
  if (schema === dateTimeSchema) {
    setDefault("format", "date-time");
    setDefault("description", "ISO 8601 date-time.");
  } else if (schema === bodyDateSchema) {
    setDefault("pattern", BODY_DATE_PATTERN.source);
    setDefault("description", "A calendar date as dd-MM-yyyy.");
  } else if (schema === queryDateSchema) {
    setDefault("pattern", QUERY_DATE_PATTERN.source);
    setDefault("format", "date");
    setDefault("description", "A calendar date as yyyy-MM-dd.");
  } else if (schema === createOperationRequestSchema) {
    setDefault(
      "anyOf",
      ["flights", "hotels", "services"].map((list) => ({ required: [list], properties: { [list]: { minItems: 1 } } })),
    );
  }
}

/** Round-trips through JSON so the document can only hold JSON values (no undefined). */
function toJson(value: unknown): JsonObject {
  return JSON.parse(JSON.stringify(value)) as JsonObject;
}

function withoutSchemaKeywords(schema: Record<string, unknown>): JsonObject {
  // Component schemas live inside the OpenAPI document: their own $schema/$id (zod writes the ref
  // URI as $id) would rebase their $refs.
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return toJson(rest);
}

function componentSchemas(entries: [z.ZodType, ComponentMeta][], io: Io): Record<string, JsonObject> {
  const registry = z.registry<ComponentMeta>();
  for (const [schema, meta] of entries) registry.add(schema, meta);
  const { schemas } = z.toJSONSchema(registry, {
    target: "draft-2020-12",
    io,
    // zod reads descriptions from `metadata` (the global registry by default), not from the registry converted.
    metadata: registry,
    uri: (id) => `#/components/schemas/${id}`,
    override: restoreRefinements,
  });
  // Shared $defs only appear for recursive schemas; their refs would point outside the components.
  if ("__shared" in schemas) throw new Error("Recursive contract schemas are not supported by the OpenAPI generator");
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, withoutSchemaKeywords(schema)]));
}

function inlineSchema(schema: z.ZodType, io: Io = "input"): JsonObject {
  return withoutSchemaKeywords(z.toJSONSchema(schema, { target: "draft-2020-12", io, override: restoreRefinements }));
}

function allComponentSchemas(): Record<string, JsonObject> {
  const responses = componentSchemas(RESPONSE_COMPONENTS, "output");
  const requests = componentSchemas(REQUEST_COMPONENTS, "input");
  const clash = Object.keys(requests).find((id) => id in responses);
  if (clash) throw new Error(`OpenAPI component ${clash} is defined both as a request and as a response schema`);
  return { ...responses, ...requests };
}

// ---------------------------------------------------------------------------------------------
// Building blocks

const schemaRef = (id: string): JsonObject => ({ $ref: `#/components/schemas/${id}` });
const jsonContent = (schema: JsonObject): JsonObject => ({ "application/json": { schema } });
const ANY_ERROR_FORMAT: JsonObject = { anyOf: [schemaRef("BusinessError"), schemaRef("GeneralError")] };

type Reason = [ErrorCode, string];

/**
 * A business error response. The error codes go in the description (and `x-error-codes`), not in
 * the schema: the spec does not say that an endpoint can only ever answer those codes.
 */
function businessErrorResponse(status: number, summary: string, reasons: Reason[], options: { generalFormatToo?: string } = {}): JsonObject {
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
    content: jsonContent(options.generalFormatToo ? ANY_ERROR_FORMAT : schemaRef("BusinessError")),
  };
}

const AGENCY_HEADER_400: Reason = ["VALIDATION_ERROR", "the agency header is missing (management group key) or is not an agency id."];
const AGENCY_HEADER_403 = "the agency header names an agency the key cannot act for (another account, or not an active agency of the group).";
const ACCESS_DENIED: Reason = ["OPERATION_ACCESS_DENIED", "the operation belongs to another account."];
const NOT_FOUND: Reason = ["OPERATION_NOT_FOUND", "no operation with this identifier."];

const forbidden = (reasons: Reason[]) =>
  businessErrorResponse(403, "No permission.", reasons, { generalFormatToo: AGENCY_HEADER_403 });
const notFound = (reasons: Reason[] = [NOT_FOUND]) => businessErrorResponse(404, "Not found.", reasons);
const badRequest = (reasons: Reason[]) => businessErrorResponse(400, "Invalid or missing data.", [...reasons, AGENCY_HEADER_400]);

const pathParameter = (name: string, schema: JsonObject, description: string): JsonObject => ({
  name,
  in: "path",
  required: true,
  description,
  schema,
});

const jsonBody = (schemaId: string, required: boolean, description?: string): JsonObject => ({
  required,
  ...(description ? { description } : {}),
  content: jsonContent(schemaRef(schemaId)),
});

const okJson = (description: string, schemaId: string): JsonObject => ({ description, content: jsonContent(schemaRef(schemaId)) });

interface Endpoint {
  method: "get" | "post" | "put";
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** GET /agencies is the one endpoint that does not take the agency header. */
  agencyExempt?: boolean;
  parameters?: JsonObject[];
  requestBody?: JsonObject;
  responses: Record<string, JsonObject>;
}

function endpoints(): Endpoint[] {
  const operationId = inlineSchema(operationSchema.shape.id, "output");
  const idParameter = (name: string) => pathParameter(name, operationId, "The operation's `id`.");
  const query = listOperationsQuerySchema.shape;
  const queryParameter = (name: keyof typeof query, description: string): JsonObject => ({
    name,
    in: "query",
    required: false,
    description,
    schema: inlineSchema(query[name].unwrap()),
  });

  return [
    {
      method: "get",
      path: "/health",
      operationId: "getHealth",
      summary: "Health check",
      description: "Connectivity check, validity check of the key, clock comparison.",
      tag: "Health",
      responses: {
        "200": okJson("The service is up.", "HealthResponse"),
        "400": badRequest([]),
        "403": forbidden([]),
        "422": businessErrorResponse(422, "Data conflict.", [["DATA_INTEGRITY_ERROR", "conflict with existing data."]]),
      },
    },
    {
      method: "get",
      path: "/financing/simulate/{totalPrice}",
      operationId: "simulateFinancing",
      summary: "Simulate financing offers for an amount",
      description: "Read-only, indicative: no operation is created. Availability and terms depend on the partner's configured markets.",
      tag: "Financing",
      parameters: [
        pathParameter(
          "totalPrice",
          inlineSchema(z.number().positive()),
          "The amount to finance; greater than zero. The advertised standard EUR range is 60 to 5,000.",
        ),
        {
          name: "countryCode",
          in: "query",
          required: false,
          description: "The customer's residence country (ISO 3166-1 alpha-3). Spain (ESP) when omitted.",
          schema: inlineSchema(countryCodeSchema),
        },
      ],
      responses: {
        "200": okJson("Indicative offers.", "FinancialOffersResponse"),
        "400": badRequest([["VALIDATION_ERROR", "the amount is not a number greater than zero, or countryCode is malformed."]]),
        "403": forbidden([]),
        "422": businessErrorResponse(422, "No financing available.", [
          ["NO_FINANCIAL_COMPANIES_CONFIGURED", "no financing options are configured for the agency."],
          ["DATA_INTEGRITY_ERROR", "conflict with existing data."],
        ]),
      },
    },
    {
      method: "post",
      path: "/operations",
      operationId: "createOperation",
      summary: "Create a financing operation",
      description: "Idempotent per `externalId`: repeating it returns the existing operation, with 200 instead of 201.",
      tag: "Operations",
      requestBody: jsonBody("CreateOperationRequest", true),
      responses: {
        "201": okJson("Created, in status GENERATED.", "CreatedOperation"),
        "200": okJson("An operation with this externalId already exists: it is returned unchanged.", "CreatedOperation"),
        "400": badRequest([["VALIDATION_ERROR", "invalid or missing data in the body (details in `additionalInfo.fields`)."]]),
        "403": forbidden([]),
      },
    },
    {
      method: "get",
      path: "/operations",
      operationId: "listOperations",
      summary: "List operations",
      tag: "Operations",
      parameters: [
        queryParameter("page", "Page number, from 0."),
        queryParameter("size", "Operations per page, at most 100."),
        queryParameter("status", "Only operations in this status."),
        queryParameter("from", "Only operations from this date (yyyy-MM-dd)."),
        queryParameter("to", "Only operations up to this date (yyyy-MM-dd)."),
      ],
      responses: {
        "200": okJson("A page of operations.", "OperationsPage"),
        "400": badRequest([["VALIDATION_ERROR", "a query parameter is malformed or out of range."]]),
        "403": forbidden([]),
      },
    },
    {
      method: "get",
      path: "/operations/by-external-id/{externalId}",
      operationId: "getOperationByExternalId",
      summary: "Find an operation by the partner's reference",
      tag: "Operations",
      parameters: [
        pathParameter(
          "externalId",
          inlineSchema(createOperationRequestSchema.shape.externalId.unwrap()),
          "The partner's reference given at creation.",
        ),
      ],
      responses: {
        "200": okJson("The operation.", "OperationByExternalId"),
        "400": badRequest([]),
        "403": forbidden([ACCESS_DENIED]),
        "404": notFound([["OPERATION_NOT_FOUND", "no operation of this account has this externalId."]]),
      },
    },
    {
      method: "get",
      path: "/financing/{operationIdentifier}",
      operationId: "getFinancialOffers",
      summary: "Financing offers an operation is eligible for",
      description: "Same shape as the simulation. An offer's `id` is the `financialOfferId` of POST /financing.",
      tag: "Financing",
      parameters: [idParameter("operationIdentifier")],
      responses: {
        "200": okJson("The eligible offers.", "FinancialOffersResponse"),
        "400": badRequest([]),
        "403": forbidden([ACCESS_DENIED]),
        "404": notFound(),
        "422": businessErrorResponse(422, "Not eligible.", [
          ["NOT_ELIGIBLE_FOR_FINANCING", "the operation is not eligible for financing."],
          ["NO_FINANCIAL_COMPANIES_CONFIGURED", "no financing options are configured for the agency."],
        ]),
      },
    },
    {
      method: "post",
      path: "/financing",
      operationId: "startFinancing",
      summary: "Start financing with a chosen offer",
      description:
        "When refused with `hasAlternativeFinancialOffers: true`, fetch GET /financing/{operationIdentifier} again and offer another option.",
      tag: "Financing",
      requestBody: jsonBody("StartFinancingRequest", true),
      responses: {
        "200": okJson("The outcome of the request to the provider.", "StartFinancingResponse"),
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
    },
    {
      method: "get",
      path: "/operations/{operationIdentifier}/status",
      operationId: "getOperationStatus",
      summary: "Current status of an operation",
      description: "Verify the status with this call after any redirect or webhook. Conditional with If-None-Match.",
      tag: "Operations",
      parameters: [
        idParameter("operationIdentifier"),
        {
          name: "If-None-Match",
          in: "header",
          required: false,
          description: "An ETag from an earlier answer: 304 without a body when it is still current.",
          schema: { type: "string" },
        },
      ],
      responses: {
        "200": {
          description: "The status.",
          headers: { ETag: { $ref: "#/components/headers/ETag" }, "Cache-Control": { $ref: "#/components/headers/CacheControl" } },
          content: jsonContent(schemaRef("OperationStatusResponse")),
        },
        "304": {
          description: "Not modified: If-None-Match equals the current ETag. No body.",
          headers: { ETag: { $ref: "#/components/headers/ETag" }, "Cache-Control": { $ref: "#/components/headers/CacheControl" } },
        },
        "400": badRequest([]),
        "403": forbidden([ACCESS_DENIED]),
        "404": notFound(),
      },
    },
    {
      method: "post",
      path: "/operations/{id}/cancel",
      operationId: "cancelOperation",
      summary: "Cancel an operation that is not yet signed",
      description:
        "Valid for GENERATED, PENDING and ERROR; the operation becomes CANCELLED. No provider is contacted and no money moves. A CANCELLED webhook follows when the operation has a webhookUrl.",
      tag: "Operations",
      parameters: [idParameter("id")],
      requestBody: jsonBody("CancelRequest", false, "Optional; the reason is kept in the operation history."),
      responses: {
        "200": okJson("Cancelled: the operation (sandbox choice: the spec does not show this body).", "Operation"),
        "400": badRequest([
          ["OPERATION_NOT_CANCELLABLE", "the operation is in another status; `additionalInfo.operationStatus` carries it."],
          ["VALIDATION_ERROR", "the reason is longer than 255 characters or the body is malformed."],
        ]),
        "403": forbidden([ACCESS_DENIED]),
        "404": notFound(),
      },
    },
    {
      method: "get",
      path: "/operations/{id}/refund/details",
      operationId: "getRefundDetails",
      summary: "Preview the refund of a confirmed operation",
      tag: "Refunds",
      parameters: [idParameter("id")],
      responses: {
        "200": okJson("What the customer would get back if the operation were refunded now.", "RefundBreakdown"),
        "400": badRequest([["OPERATION_NOT_REFUNDABLE", "the operation is not CONFIRMED."]]),
        "403": forbidden([ACCESS_DENIED]),
        "404": notFound(),
      },
    },
    {
      method: "post",
      path: "/operations/{id}/refund",
      operationId: "refundOperation",
      summary: "Refund a confirmed operation",
      description:
        "Refunds through the finance provider, records the charges in the monthly invoice and leaves the operation REFUNDED; a REFUNDED webhook follows when the operation has a webhookUrl.",
      tag: "Refunds",
      parameters: [idParameter("id")],
      requestBody: jsonBody("RefundRequest", false, "Optional; charges default to 0, the reason is kept in the history."),
      responses: {
        "200": okJson("Refunded.", "RefundResponse"),
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
    },
    {
      method: "get",
      path: "/agencies",
      operationId: "listAgencies",
      summary: "The agencies of a management group",
      description: "Management group keys only, and without the agency header. The ids are the valid agency header values elsewhere.",
      tag: "Agencies",
      agencyExempt: true,
      responses: {
        "200": okJson("The group's active agencies, sorted by id.", "AgencyList"),
        "403": {
          description: "The key is not a management group key.",
          content: jsonContent(ANY_ERROR_FORMAT),
        },
      },
    },
    {
      method: "put",
      path: "/operations/webhook-events/ack",
      operationId: "acknowledgeWebhookEvent",
      summary: "Acknowledge a webhook event",
      description:
        "Send back the three fields received. Unacknowledged events are redelivered. A management group key names the agency that owns the operation.",
      tag: "Webhooks",
      requestBody: jsonBody("WebhookEvent", true),
      responses: {
        "200": okJson("Acknowledged (acknowledging again is also a success).", "AckResponse"),
        "400": badRequest([["VALIDATION_ERROR", "invalid or missing fields."]]),
        "403": forbidden([
          ACCESS_DENIED,
          ["WEBHOOK_EVENT_OPERATION_MISMATCH", "the event is not an event of this operation."],
        ]),
        "404": notFound([NOT_FOUND, ["WEBHOOK_EVENT_NOT_FOUND", "no event with this eventId."]]),
        "409": businessErrorResponse(409, "The event cannot be acknowledged.", [
          ["WEBHOOK_EVENT_STATUS_MISMATCH", "operationStatus is not the status the event carried."],
          ["WEBHOOK_EVENT_NOT_ACKNOWLEDGEABLE", "the event can no longer be acknowledged (for example superseded by a later one)."],
        ]),
      },
    },
  ];
}

/** Answers any endpoint can give; the spec's table lists them without tying them to endpoints. */
const COMMON_RESPONSES: Record<string, JsonObject> = {
  "401": { $ref: "#/components/responses/Unauthorized" },
  "429": { $ref: "#/components/responses/TooManyRequests" },
  "500": { $ref: "#/components/responses/InternalError" },
  "503": { $ref: "#/components/responses/ServiceUnavailable" },
};

const TAGS = [
  { name: "Health", description: "Connectivity and key check." },
  { name: "Financing", description: "Offers and starting financing." },
  { name: "Operations", description: "Financing operations." },
  { name: "Refunds", description: "Refund of confirmed operations." },
  { name: "Agencies", description: "Management groups." },
  { name: "Webhooks", description: "Acknowledging notifications." },
];

const DESCRIPTION = [
  "The travel financing partner API, as served by this sandbox. Generated from the shared zod contract.",
  "",
  "- Request body dates are dd-MM-yyyy; query dates yyyy-MM-dd; response timestamps ISO 8601; country codes ISO 3166-1 alpha-3.",
  "- Every request carries the API key header. Sandbox keys start with `fk_test_`; `fk_live_` keys are refused (401).",
  "- A management group key also sends the agency header (an id from GET /agencies) on every other endpoint; an agency key may omit it.",
  "- Error bodies come in three formats: business (`errorCode`, `message`, optional `additionalInfo`), general (`error`, `message`, `timestamp`) and authentication (`error_description`).",
  "- An unknown route answers 404 in the general format.",
].join("\n");

export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const serverUrl = options.serverUrl ?? DEFAULT_SERVER_URL;
  const apiKeyHeader = options.apiKeyHeader ?? DEFAULT_API_KEY_HEADER;
  const agencyHeader = options.agencyHeader ?? DEFAULT_AGENCY_HEADER;

  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const endpoint of endpoints()) {
    const parameters = [...(endpoint.agencyExempt ? [] : [{ $ref: "#/components/parameters/Agency" }]), ...(endpoint.parameters ?? [])];
    const operation: JsonObject = {
      operationId: endpoint.operationId,
      summary: endpoint.summary,
      ...(endpoint.description ? { description: endpoint.description } : {}),
      tags: [endpoint.tag],
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(endpoint.requestBody ? { requestBody: endpoint.requestBody } : {}),
      responses: {
        ...endpoint.responses,
        ...COMMON_RESPONSES,
        ...(endpoint.requestBody ? { "413": { $ref: "#/components/responses/PayloadTooLarge" } } : {}),
      },
    };
    paths[endpoint.path] = { ...paths[endpoint.path], [endpoint.method]: operation };
  }

  return {
    openapi: "3.1.0",
    info: { title: "Travel Financing Partner API (sandbox)", version: "1.8.0", description: DESCRIPTION },
    servers: [{ url: serverUrl, description: "Sandbox" }],
    security: [{ ApiKey: [] }],
    tags: TAGS,
    paths,
    webhooks: {
      operationStatus: {
        post: {
          operationId: "operationStatusWebhook",
          summary: "Operation status notification",
          description:
            "POSTed to the operation's webhookUrl when it reaches CONFIRMED, REFUSED, EXPIRED, CANCELLED, REFUNDED or ERROR. Redelivered until acknowledged with PUT /operations/webhook-events/ack: a 2xx alone does not stop redeliveries. Confirm the status with GET /operations/{operationIdentifier}/status.",
          // The service sends no API key to the partner, and the spec shows no signature.
          security: [],
          requestBody: jsonBody("WebhookEvent", true),
          responses: { "2XX": { description: "Received." } },
        },
      },
    },
    components: {
      schemas: allComponentSchemas(),
      parameters: {
        Agency: {
          name: agencyHeader,
          in: "header",
          required: false,
          description:
            "The id of the agency acted for. Required with a management group key (an id from GET /agencies); an agency key may omit it or send its own id.",
          schema: { type: "string", pattern: "^[0-9]+$" },
        },
      },
      headers: {
        ETag: {
          description: "The status, a hyphen and the update time in epoch seconds, in quotation marks.",
          required: true,
          schema: { type: "string", pattern: '^"[A-Z_]+-[0-9]+"$' },
          example: '"CONFIRMED-1718000000"',
        },
        CacheControl: {
          description: "Status answers may be cached for 60 seconds and must be revalidated.",
          required: true,
          schema: { type: "string", const: "max-age=60, must-revalidate" },
        },
        RetryAfter: {
          description: "Seconds to wait before retrying.",
          required: false,
          schema: { type: "string", pattern: "^[0-9]+$" },
        },
      },
      responses: {
        Unauthorized: {
          description: "Missing or invalid API key (a production key in the sandbox included).",
          content: jsonContent(schemaRef("AuthError")),
        },
        TooManyRequests: {
          description: "Rate limit exceeded: slow down.",
          headers: { "Retry-After": { $ref: "#/components/headers/RetryAfter" } },
          content: jsonContent(ANY_ERROR_FORMAT),
        },
        InternalError: {
          description: "Internal error (`INTERNAL_ERROR` in the business format, or the general format): retry with exponential backoff.",
          "x-error-codes": ["INTERNAL_ERROR"],
          content: jsonContent(ANY_ERROR_FORMAT),
        },
        PayloadTooLarge: {
          description: "Sandbox limit: a request body over 64 KB is refused before it is read (the spec states no limit).",
          content: jsonContent(schemaRef("GeneralError")),
        },
        ServiceUnavailable: {
          description: "Temporarily unavailable (in the sandbox, an injected fault): retry with exponential backoff.",
          content: jsonContent(ANY_ERROR_FORMAT),
        },
      },
      securitySchemes: {
        ApiKey: {
          type: "apiKey",
          in: "header",
          name: apiKeyHeader,
          description: "The partner's key: `fk_test_…` in the sandbox, `fk_live_…` in production.",
        },
      },
    },
  };
}
