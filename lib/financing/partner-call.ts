import "server-only";
import type { z } from "zod";
import { authErrorBodySchema, businessErrorBodySchema, generalErrorBodySchema } from "./contract";
import { FinancingApiError, redact, redactRecord, type FieldProblem, type FinancingErrorKind } from "./errors";
import { fetchTransport, undiciTransportTrusting, type HttpExchange } from "./transport";
import { currentRequestId } from "@/lib/logging/context";
import { loggerFor } from "@/lib/logger";
import { inSpan, markFailed, SpanKind, withTraceHeaders } from "@/lib/tracing/spans";
import type { PartnerCallObservation } from "@/lib/ops/metrics";

/*
 * How the partner API client makes one call: its headers, the attempts (retried only when safe to
 * repeat, with full-jitter backoff or the answer's Retry-After), the mapping of an error answer to
 * a FinancingApiError, and the checks of what is sent and what comes back. The typed calls, one
 * per endpoint, are `client.ts`; one attempt on the wire is `transport.ts`.
 */

const log = loggerFor("financing");

export interface PartnerCallOptions {
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

export const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);
const MAX_ATTEMPTS = 3;
const BACKOFF_BASE_MS = 200;
const BACKOFF_CAP_MS = 2_000;
/** A Retry-After longer than this is not waited for: the caller gets the 429 and decides. */
const RETRY_AFTER_CAP_MS = 10_000;

export interface CallSpec<S extends z.ZodType> {
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

export type CallResult<T> = { kind: "body"; data: T; headers: Headers } | { kind: "not-modified"; headers: Headers };

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

/**
 * One attempt as a client span (tracing on): named by the endpoint's template, with the API's host,
 * the attempt's number and the answer's status; never the path's ids, the query, a header or the
 * key. The attempt's headers get its `traceparent`, so the partner API may join the trace.
 */
function attemptInSpan(
  endpoint: string,
  url: URL,
  attempt: number,
  send: (traced: (headers: Record<string, string>) => Record<string, string>) => Promise<HttpExchange>,
): Promise<HttpExchange> {
  const [method, template] = endpoint.split(" ", 2);
  const attributes = {
    "http.request.method": method,
    "url.template": template,
    "server.address": url.hostname,
    "http.request.resend_count": attempt - 1,
  };
  return inSpan(`financing ${endpoint}`, { kind: SpanKind.CLIENT, attributes }, async (span) => {
    const response = await send(withTraceHeaders);
    span.setAttribute("http.response.status_code", response.status);
    if (response.status >= 400) markFailed(span, String(response.status));
    return response;
  });
}

/** The call machinery of one client: `call` and `body` make calls; `fail` and `validated` refuse early. */
export function createPartnerCaller(options: PartnerCallOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const apiKeyHeader = options.apiKeyHeader ?? "X-Service-API-Key";
  const agencyHeader = options.agencyHeader ?? "X-Service-Agency";
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxAttempts = Math.min(Math.max(options.maxAttempts ?? MAX_ATTEMPTS, 1), MAX_ATTEMPTS);
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
        response = await attemptInSpan(endpoint, url, attempt, (traced) =>
          send(url, { method: spec.method, headers: traced(headers), body, signal: AbortSignal.timeout(timeoutMs) }),
        );
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

  return { call, body, fail, validated, newRequestId };
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
