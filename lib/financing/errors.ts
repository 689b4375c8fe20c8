import { registerErrorDescriber, scrub, scrubRecord } from "@/lib/logging/safe-error";
import type { ErrorCode } from "./contract";

/**
 * How a call to the partner API went wrong:
 * - business: a body with `errorCode` (the spec's named codes);
 * - auth: 401 with `error_description`;
 * - general: the `error` / `message` / `timestamp` format (unknown routes, framework errors);
 * - http: an error status with a body in none of the three formats;
 * - network / timeout: no answer;
 * - contract: an answer that breaks the spec (wrong field, wrong type, not JSON);
 * - invalid_request: our own input was refused before anything was sent.
 */
export type FinancingErrorKind = "business" | "auth" | "general" | "http" | "network" | "timeout" | "contract" | "invalid_request";

export interface FieldProblem {
  /** Dotted path of the field, e.g. `client.birthDate` or `financialOffers.0.tae`. */
  field: string;
  message: string;
}

export interface FinancingApiErrorInit {
  kind: FinancingErrorKind;
  message: string;
  /** The endpoint as a template, e.g. `GET /operations/{id}/status`: no identifiers, no query. */
  endpoint: string;
  requestId: string;
  status?: number;
  errorCode?: string;
  additionalInfo?: Record<string, unknown>;
  fields?: FieldProblem[];
  attempts?: number;
  retryAfterSeconds?: number;
  cause?: unknown;
}

/**
 * The one error type of the partner API client. It is safe to log: it never holds the API key,
 * request bodies or customer data (server messages are redacted of e-mail addresses and secrets).
 */
export class FinancingApiError extends Error {
  readonly kind: FinancingErrorKind;
  readonly endpoint: string;
  readonly requestId: string;
  readonly status: number | undefined;
  readonly errorCode: ErrorCode | (string & {}) | undefined;
  readonly additionalInfo: Record<string, unknown> | undefined;
  readonly fields: FieldProblem[];
  readonly attempts: number;
  readonly retryAfterSeconds: number | undefined;

  constructor(init: FinancingApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "FinancingApiError";
    this.kind = init.kind;
    this.endpoint = init.endpoint;
    this.requestId = init.requestId;
    this.status = init.status;
    this.errorCode = init.errorCode;
    this.additionalInfo = init.additionalInfo;
    this.fields = init.fields ?? [];
    this.attempts = init.attempts ?? 1;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }

  /** True when the API answered with this named error code. */
  is(code: ErrorCode): boolean {
    return this.errorCode === code;
  }

  /** The operation's current status the API reported with the error (OPERATION_NOT_CANCELLABLE). */
  get operationStatus(): string | undefined {
    const value = this.additionalInfo?.operationStatus;
    return typeof value === "string" ? value : undefined;
  }

  toJSON() {
    return {
      name: this.name,
      kind: this.kind,
      endpoint: this.endpoint,
      status: this.status,
      errorCode: this.errorCode,
      message: this.message,
      additionalInfo: this.additionalInfo,
      fields: this.fields,
      requestId: this.requestId,
      attempts: this.attempts,
    };
  }
}

/**
 * By its name and shape, not `instanceof`: Next's build has a copy of each module per bundle (route
 * handlers, pages and actions, instrumentation), so an error thrown by one bundle's copy of the
 * class is not an instance of another's (the logger, one per process, meets them all).
 */
export function isFinancingApiError(error: unknown, code?: ErrorCode): error is FinancingApiError {
  return (
    error instanceof Error &&
    error.name === "FinancingApiError" &&
    typeof (error as { toJSON?: unknown }).toJSON === "function" &&
    typeof (error as { endpoint?: unknown }).endpoint === "string" &&
    (code === undefined || (error as { errorCode?: unknown }).errorCode === code)
  );
}

// The logger knows no domain: it learns here how this client's errors are logged (by their own
// safe shape) and which are refusals the caller handles (a business answer below 500: info).
registerErrorDescriber("FinancingApiError", {
  describe(error) {
    if (!isFinancingApiError(error)) return undefined;
    const { name: _name, message, ...api } = error.toJSON();
    return { type: "FinancingApiError", message: scrub(message), api: scrubRecord(api) };
  },
  isRefusal: (error) => isFinancingApiError(error) && error.kind === "business" && error.status !== undefined && error.status < 500,
});

const EMAIL = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[^\s@"'<>(),;:]+/g;
const MESSAGE_MAX = 500;

/** Server messages may echo what was sent; keep them loggable. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length > 0) out = out.split(secret).join("[redacted]");
  out = out.replace(EMAIL, "[email]");
  return out.length > MESSAGE_MAX ? `${out.slice(0, MESSAGE_MAX)}…` : out;
}

/** Redacts the values of additionalInfo the same way, keeping its keys and non-string values. */
export function redactRecord(record: Record<string, unknown>, secrets: readonly string[]): Record<string, unknown> {
  return JSON.parse(JSON.stringify(record), (_key, value: unknown) =>
    typeof value === "string" ? redact(value, secrets) : value,
  ) as Record<string, unknown>;
}
