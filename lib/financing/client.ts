import "server-only";
import { z } from "zod";
import {
  ackRequestSchema,
  countryCodeSchema,
  ackResponseSchema,
  agenciesResponseSchema,
  authErrorBodySchema,
  businessErrorBodySchema,
  cancelRequestSchema,
  createOperationRequestSchema,
  createdOperationSchema,
  financialOffersResponseSchema,
  generalErrorBodySchema,
  healthResponseSchema,
  listOperationsQuerySchema,
  operationByExternalIdSchema,
  operationChangeResponseSchema,
  operationStatusResponseSchema,
  operationsPageSchema,
  refundBreakdownSchema,
  refundRequestSchema,
  startFinancingRequestSchema,
  startFinancingResponseSchema,
} from "./contract";
import { FinancingApiError, redact, redactRecord, type FieldProblem, type FinancingErrorKind } from "./errors";
import { amountFromCents, decimalFromCents, moneyFromAmount } from "./money";
import { createMemoryStatusCache, type StatusCache } from "./status-cache";
import { fetchTransport, undiciTransportTrusting, type HttpExchange } from "./transport";
import {
  toFinancialOffer,
  toOperation,
  toWireCreateOperation,
  type Agency,
  type CreateOperationInput,
  type FinancialOffers,
  type Health,
  type ListOperationsInput,
  type Money,
  type Operation,
  type OperationChange,
  type OperationStatusInfo,
  type Page,
  type RefundBreakdown,
  type RefundInput,
  type StartFinancingResult,
  type WebhookEvent,
} from "./types";
import { currentRequestId } from "@/lib/logging/context";
import { loggerFor } from "@/lib/logger";
import type { PartnerCallObservation } from "@/lib/ops/metrics";

const log = loggerFor("financing");

export interface FinancingClientOptions {
  /** Includes the version segment, e.g. `https://api.example/v1`. */
  baseUrl: string;
  apiKey: string;
  /** For a management group key: the agency sent in the agency header (every call but GET /agencies). */
  agencyId?: number;
  apiKeyHeader?: string;
  agencyHeader?: string;
  /** Per attempt. */
  timeoutMs?: number;
  /** At most 3, and only for calls that are safe to repeat. */
  maxAttempts?: number;
  /** Where the ETags of status reads are kept; in memory by default. */
  statusCache?: StatusCache;
  /** Sends the calls through this fetch (tests, the sandbox's in-process pages); by default undici (./transport.ts). */
  fetch?: typeof fetch;
  /** CAs (PEM) trusted beside the public ones for this API's TLS (FINANCING_API_CA_FILE); not with `fetch`. */
  caCertificates?: readonly string[] | undefined;
  /** Told of every attempt's outcome (metrics): the endpoint as a template, never a path with an id. */
  observe?: (attempt: PartnerCallObservation) => void;
  /** For tests: the backoff's sleep and randomness. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** For tests: request ids. */
  requestId?: () => string;
}

/** The answer of a conditional status read. */
export type StatusRead =
  | { modified: true; status: OperationStatusInfo; etag: string | undefined }
  /** 304: the status is the one known from the previous read. */
  | { modified: false; status: OperationStatusInfo; etag: string };

export const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);
const MAX_ATTEMPTS = 3;
const BACKOFF_BASE_MS = 200;
const BACKOFF_CAP_MS = 2_000;
/** A Retry-After longer than this is not waited for: the caller gets the 429 and decides. */
const RETRY_AFTER_CAP_MS = 10_000;

interface CallSpec<S extends z.ZodType> {
  method: "GET" | "POST" | "PUT";
  /** The path template, used in errors and logs: `/operations/{id}/status`. */
  template: string;
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  schema: S;
  /** Whether a repeat is safe: GET calls, the ack, and POST /operations (idempotent per externalId). */
  idempotent: boolean;
  /** GET /agencies is the one call that never carries the agency header. */
  withAgency?: boolean;
  headers?: Record<string, string>;
  /** The answer may be empty (cancel, refund, ack). */
  emptyBodyAllowed?: boolean;
  /** 304 is an answer, not an error (conditional status reads). */
  notModifiedAllowed?: boolean;
}

type CallResult<T> = { kind: "body"; data: T; headers: Headers } | { kind: "not-modified"; headers: Headers };

export type FinancingClient = ReturnType<typeof createFinancingClient>;

// OpenSSL's and Node's codes for a certificate chain or name the client would not accept.
const TLS_CERTIFICATE_CODE = /^(ERR_TLS_CERT_ALTNAME_INVALID|CERT_[A-Z_]+|[A-Z_]*SELF_SIGNED[A-Z_]*|UNABLE_TO_[A-Z_]+)$/;

/**
 * Why a call got no answer, for the log: a refused certificate is told apart (its code and the
 * setting that fixes the usual cause), since retrying never helps it.
 */
function unreachableReason(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === "string" && TLS_CERTIFICATE_CODE.test(code)) {
    return `the partner API's TLS certificate was not accepted (${code}); if it is issued by a private CA, set FINANCING_API_CA_FILE`;
  }
  return "the partner API could not be reached";
}

/** A typed client for the partner API: one method per endpoint (docs/partner-api.md). */
export function createFinancingClient(options: FinancingClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const apiKeyHeader = options.apiKeyHeader ?? "X-Service-API-Key";
  const agencyHeader = options.agencyHeader ?? "X-Service-Agency";
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxAttempts = Math.min(Math.max(options.maxAttempts ?? MAX_ATTEMPTS, 1), MAX_ATTEMPTS);
  const statusCache = options.statusCache ?? createMemoryStatusCache();
  const send = options.fetch ? fetchTransport(options.fetch) : undiciTransportTrusting(options.caCertificates);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  // Within a request, the request's own id (so its lines and the partner's match); else one per call.
  const newRequestId = options.requestId ?? (() => currentRequestId() ?? crypto.randomUUID());
  const secrets = [options.apiKey];

  function fail(init: Omit<ConstructorParameters<typeof FinancingApiError>[0], "message"> & { message: string }): never {
    throw new FinancingApiError({ ...init, message: redact(init.message, secrets) });
  }

  /** Validates what we are about to send; a bad value is named and nothing is sent. */
  function validated<S extends z.ZodType>(schema: S, value: unknown, endpoint: string): z.infer<S> {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const fields = fieldProblems(result.error);
    return fail({
      kind: "invalid_request",
      endpoint,
      requestId: newRequestId(),
      fields,
      message: `Invalid request for ${endpoint}: ${describeFields(fields)}`,
    });
  }

  function backoffMs(attempt: number): number {
    // Full jitter (AWS architecture blog): spreads the retries of many callers over the window.
    return Math.floor(random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1)));
  }

  async function call<S extends z.ZodType>(spec: CallSpec<S>): Promise<CallResult<z.infer<S>>> {
    const endpoint = `${spec.method} ${spec.template}`;
    const requestId = newRequestId();
    const url = new URL(baseUrl + spec.path);
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = {
      Accept: "application/json",
      // Uncompressed: the answers are a few KB, and inflating them cost the checkout more CPU than
      // the bytes saved (under load, ~3 ms per offers page: docs/contributors/performance.md).
      "Accept-Encoding": "identity",
      [apiKeyHeader]: options.apiKey,
      "X-Request-Id": requestId,
      ...spec.headers,
    };
    if (options.agencyId !== undefined && spec.withAgency !== false) headers[agencyHeader] = String(options.agencyId);
    if (spec.body !== undefined) headers["Content-Type"] = "application/json";
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const attempts = spec.idempotent ? maxAttempts : 1;

    for (let attempt = 1; ; attempt++) {
      const last = attempt >= attempts;
      let response: HttpExchange;
      const started = performance.now();
      try {
        // The answer is read whole inside the try: the timeout also covers a body that never finishes.
        response = await send(url, { method: spec.method, headers, body, signal: AbortSignal.timeout(timeoutMs) });
        options.observe?.({ endpoint, outcome: response.status, durationMs: performance.now() - started });
        log.debug({ endpoint, status: response.status, attempt, requestId }, "partner API answered");
      } catch (error) {
        const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
        options.observe?.({ endpoint, outcome: timedOut ? "timeout" : "network", durationMs: performance.now() - started });
        if (!last) {
          await sleep(backoffMs(attempt));
          continue;
        }
        return fail({
          kind: timedOut ? "timeout" : "network",
          endpoint,
          requestId,
          attempts: attempt,
          cause: timedOut ? undefined : error,
          message: timedOut ? `${endpoint} timed out after ${timeoutMs} ms` : `${endpoint} failed: ${unreachableReason(error)}`,
        });
      }

      if (RETRYABLE_STATUSES.has(response.status) && !last) {
        const retryAfterMs = parseRetryAfter(response.headers.get("Retry-After"));
        if (retryAfterMs === undefined || retryAfterMs <= RETRY_AFTER_CAP_MS) {
          await sleep(retryAfterMs ?? backoffMs(attempt));
          continue;
        }
      }

      if (response.status === 304 && spec.notModifiedAllowed) return { kind: "not-modified", headers: response.headers };

      if (response.status < 200 || response.status > 299) {
        return fail(errorFromResponse(response.status, response.text, response.headers, { endpoint, requestId, attempts: attempt }));
      }

      return { kind: "body", data: parseBody(spec, response.text, { endpoint, requestId, attempts: attempt }), headers: response.headers };
    }
  }

  function parseBody<S extends z.ZodType>(
    spec: CallSpec<S>,
    text: string,
    context: { endpoint: string; requestId: string; attempts: number },
  ): z.infer<S> {
    let json: unknown = undefined;
    if (text.trim() === "") {
      if (!spec.emptyBodyAllowed) {
        return fail({ ...context, kind: "contract", message: `${context.endpoint} answered with an empty body` });
      }
    } else {
      try {
        json = JSON.parse(text);
      } catch {
        return fail({ ...context, kind: "contract", message: `${context.endpoint} answered with a body that is not JSON` });
      }
    }
    const result = spec.schema.safeParse(json);
    if (!result.success) {
      const fields = fieldProblems(result.error);
      return fail({
        ...context,
        kind: "contract",
        fields,
        message: `${context.endpoint} answered outside the contract: ${describeFields(fields)}`,
      });
    }
    return result.data;
  }

  function errorFromResponse(
    status: number,
    text: string,
    headers: Headers,
    context: { endpoint: string; requestId: string; attempts: number },
  ) {
    let json: unknown = undefined;
    try {
      json = text.trim() === "" ? undefined : JSON.parse(text);
    } catch {
      json = undefined; // not JSON: reported as a plain HTTP error below
    }
    const retryAfter = parseRetryAfter(headers.get("Retry-After"));
    const base = {
      ...context,
      status,
      retryAfterSeconds: retryAfter === undefined ? undefined : Math.ceil(retryAfter / 1000),
    };
    const business = businessErrorBodySchema.safeParse(json);
    if (business.success) {
      return {
        ...base,
        kind: "business" as const,
        errorCode: business.data.errorCode,
        additionalInfo: business.data.additionalInfo && redactRecord(business.data.additionalInfo, secrets),
        message: `${context.endpoint} failed with ${status} ${business.data.errorCode}: ${business.data.message}`,
      };
    }
    const auth = authErrorBodySchema.safeParse(json);
    if (auth.success) {
      return { ...base, kind: "auth" as const, message: `${context.endpoint} failed with ${status}: ${auth.data.error_description}` };
    }
    const general = generalErrorBodySchema.safeParse(json);
    if (general.success) {
      return {
        ...base,
        kind: "general" as const,
        message: `${context.endpoint} failed with ${status} ${general.data.error}: ${general.data.message}`,
      };
    }
    const kind: FinancingErrorKind = "http";
    return { ...base, kind, message: `${context.endpoint} failed with HTTP ${status}` };
  }

  async function body<S extends z.ZodType>(spec: CallSpec<S>): Promise<z.infer<S>> {
    const result = await call(spec);
    // Only conditional reads allow 304; anything else reaching here has a body.
    if (result.kind !== "body") throw new Error("unexpected 304");
    return result.data;
  }

  const seg = encodeURIComponent;

  return {
    /** GET /health: connectivity, key validity, version and the API's clock. */
    async health(): Promise<Health> {
      return body({ method: "GET", template: "/health", path: "/health", schema: healthResponseSchema, idempotent: true });
    },

    /** GET /financing/simulate/{totalPrice}: indicative offers; nothing is created. */
    async simulate(totalPrice: Money, params: { countryCode?: string } = {}): Promise<FinancialOffers> {
      const endpoint = "GET /financing/simulate/{totalPrice}";
      if (totalPrice.cents <= 0) {
        fail({
          kind: "invalid_request",
          endpoint,
          requestId: newRequestId(),
          fields: [{ field: "totalPrice", message: "must be greater than zero" }],
          message: `Invalid request for ${endpoint}: totalPrice must be greater than zero`,
        });
      }
      const query = validated(listCountrySchema, params, endpoint);
      const data = await body({
        method: "GET",
        template: "/financing/simulate/{totalPrice}",
        path: `/financing/simulate/${decimalFromCents(totalPrice.cents)}`,
        query: { countryCode: query.countryCode },
        schema: financialOffersResponseSchema,
        idempotent: true,
      });
      return toOffers(data);
    },

    /** POST /operations: idempotent per externalId, so a repeat after a lost answer is safe. */
    async createOperation(input: CreateOperationInput): Promise<Operation> {
      const requestBody = validated(createOperationRequestSchema, toWireCreateOperation(input), "POST /operations");
      const data = await body({
        method: "POST",
        template: "/operations",
        path: "/operations",
        body: requestBody,
        schema: createdOperationSchema,
        idempotent: true,
      });
      return toOperation(data);
    },

    /** GET /operations: one page, as Spring Data returns it. */
    async listOperations(input: ListOperationsInput = {}): Promise<Page<Operation>> {
      const query = validated(listOperationsQuerySchema, input, "GET /operations");
      const data = await body({
        method: "GET",
        template: "/operations",
        path: "/operations",
        query,
        schema: operationsPageSchema,
        idempotent: true,
      });
      return {
        content: data.content.map(toOperation),
        number: data.number,
        size: data.size,
        totalElements: data.totalElements,
        totalPages: data.totalPages,
        first: data.first,
        last: data.last,
      };
    },

    /** GET /operations/by-external-id/{externalId} */
    async getOperationByExternalId(externalId: string): Promise<Operation> {
      const id = validated(nonEmptyId, externalId, "GET /operations/by-external-id/{externalId}");
      const data = await body({
        method: "GET",
        template: "/operations/by-external-id/{externalId}",
        path: `/operations/by-external-id/${seg(id)}`,
        schema: operationByExternalIdSchema,
        idempotent: true,
      });
      return toOperation(data);
    },

    /** GET /financing/{operationIdentifier}: the offers this operation is eligible for. */
    async getOffers(operationId: string): Promise<FinancialOffers> {
      const id = validated(nonEmptyId, operationId, "GET /financing/{operationIdentifier}");
      const data = await body({
        method: "GET",
        template: "/financing/{operationIdentifier}",
        path: `/financing/${seg(id)}`,
        schema: financialOffersResponseSchema,
        idempotent: true,
      });
      return toOffers(data);
    },

    /** POST /financing: never retried, a repeat could start a second request at a provider. */
    async startFinancing(operationId: string, offerId: number): Promise<StartFinancingResult> {
      const requestBody = validated(
        startFinancingRequestSchema,
        { operationIdentifier: operationId, financialOfferId: offerId },
        "POST /financing",
      );
      const data = await body({
        method: "POST",
        template: "/financing",
        path: "/financing",
        body: requestBody,
        schema: startFinancingResponseSchema,
        idempotent: false,
      });
      return data.financingStatus === "REQUESTED"
        ? { financingStatus: "REQUESTED", paymentUrl: data.paymentUrl }
        : {
            financingStatus: data.financingStatus,
            paymentUrl: null,
            hasAlternativeFinancialOffers: data.hasAlternativeFinancialOffers,
          };
    },

    /**
     * GET /operations/{id}/status, conditional: the last ETag is sent as If-None-Match, and a 304
     * comes back as `modified: false` with the status known from before.
     */
    async getStatus(operationId: string): Promise<StatusRead> {
      const id = validated(nonEmptyId, operationId, "GET /operations/{id}/status");
      const known = await statusCache.get(id);
      const result = await call({
        method: "GET",
        template: "/operations/{id}/status",
        path: `/operations/${seg(id)}/status`,
        schema: operationStatusResponseSchema,
        idempotent: true,
        headers: known ? { "If-None-Match": known.etag } : undefined,
        notModifiedAllowed: known !== undefined,
      });
      if (result.kind === "not-modified") {
        // notModifiedAllowed is only set when `known` exists.
        const entry = known!;
        return { modified: false, status: entry.status, etag: entry.etag };
      }
      const status: OperationStatusInfo = {
        operationId: result.data.operationId,
        status: result.data.status,
        updatedAt: result.data.updatedAt,
      };
      const etag = result.headers.get("ETag") ?? undefined;
      if (etag !== undefined) await statusCache.set(id, { etag, status });
      return { modified: true, status, etag };
    },

    /** POST /operations/{id}/cancel: GENERATED, PENDING or ERROR only; never retried. */
    async cancelOperation(operationId: string, params: { reason?: string } = {}): Promise<OperationChange> {
      const endpoint = "POST /operations/{id}/cancel";
      const id = validated(nonEmptyId, operationId, endpoint);
      const requestBody = validated(cancelRequestSchema, params, endpoint);
      const data = await body({
        method: "POST",
        template: "/operations/{id}/cancel",
        path: `/operations/${seg(id)}/cancel`,
        body: requestBody,
        schema: operationChangeResponseSchema.optional(),
        idempotent: false,
        emptyBodyAllowed: true,
      });
      return { operationId: id, status: data?.status };
    },

    /** GET /operations/{id}/refund/details: what the customer would get back now. */
    async getRefundDetails(operationId: string): Promise<RefundBreakdown> {
      const id = validated(nonEmptyId, operationId, "GET /operations/{id}/refund/details");
      const data = await body({
        method: "GET",
        template: "/operations/{id}/refund/details",
        path: `/operations/${seg(id)}/refund/details`,
        schema: refundBreakdownSchema,
        idempotent: true,
      });
      const m = (value: { amount: number; currency: string }) => moneyFromAmount(value.amount, value.currency);
      return {
        operationId: data.operationId,
        totalReserve: m(data.totalReserve),
        managementFees: m(data.managementFees),
        serviceCancellationFee: m(data.fliinowCancellationFee),
        serviceCancellationFeePercentage: data.fliinowCancellationFeePercentage,
        totalToRefund: m(data.totalToRefund),
      };
    },

    /** POST /operations/{id}/refund: CONFIRMED only; never retried (money moves). */
    async refund(operationId: string, params: RefundInput = {}): Promise<OperationChange> {
      const endpoint = "POST /operations/{id}/refund";
      const id = validated(nonEmptyId, operationId, endpoint);
      const requestBody = validated(
        refundRequestSchema,
        {
          agencyCancellationFee: params.agencyCancellationFee && amountFromCents(params.agencyCancellationFee.cents),
          providerCancellationFee: params.providerCancellationFee && amountFromCents(params.providerCancellationFee.cents),
          reason: params.reason,
        },
        endpoint,
      );
      const data = await body({
        method: "POST",
        template: "/operations/{id}/refund",
        path: `/operations/${seg(id)}/refund`,
        body: requestBody,
        schema: operationChangeResponseSchema.optional(),
        idempotent: false,
        emptyBodyAllowed: true,
      });
      return { operationId: id, status: data?.status };
    },

    /** GET /agencies: management group keys only, and the one call without the agency header. */
    async listAgencies(): Promise<Agency[]> {
      return body({
        method: "GET",
        template: "/agencies",
        path: "/agencies",
        schema: agenciesResponseSchema,
        idempotent: true,
        withAgency: false,
      });
    },

    /** PUT /operations/webhook-events/ack: the same three fields the webhook carried; safe to repeat. */
    async acknowledgeWebhookEvent(event: WebhookEvent): Promise<void> {
      const requestBody = validated(ackRequestSchema, event, "PUT /operations/webhook-events/ack");
      await body({
        method: "PUT",
        template: "/operations/webhook-events/ack",
        path: "/operations/webhook-events/ack",
        body: requestBody,
        schema: ackResponseSchema,
        idempotent: true,
        emptyBodyAllowed: true,
      });
    },
  };
}

// ---------------------------------------------------------------------------------------------

const nonEmptyId = z.string().trim().min(1, "must not be empty");
const listCountrySchema = z.object({ countryCode: countryCodeSchema.optional() });

function toOffers(data: z.infer<typeof financialOffersResponseSchema>): FinancialOffers {
  return { currency: data.currency, offers: data.financialOffers.map((offer) => toFinancialOffer(offer, data.currency)) };
}

function fieldProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.map(String).join(".") : "(body)",
    message: issue.message,
  }));
}

function describeFields(fields: FieldProblem[]): string {
  return fields.map((f) => `${f.field} ${f.message}`).join("; ");
}

/** Retry-After is either seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
