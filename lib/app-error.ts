import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { logError, loggerFor } from "@/lib/logger";

/**
 * The app's one error type: a code that maps to an HTTP status and to a message safe to show.
 * Details (causes, identifiers) are for logs, never for the response.
 */
export const APP_ERROR_STATUS = {
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  validation_failed: 400,
  unsupported_api_version: 400,
  payload_too_large: 413,
  conflict: 409,
  not_cancellable: 409,
  not_refundable: 409,
  refund_in_progress: 409,
  idempotency_key_in_use: 409,
  idempotency_key_reused: 422,
  session_expired: 410,
  refund_rejected: 422,
  rate_limited: 429,
  financing_unavailable: 502,
  internal: 500,
  database_unavailable: 503,
} as const;
export type AppErrorCode = keyof typeof APP_ERROR_STATUS;

/** The most an error's body holds (the API's document states these): characters, and fields named. */
export const API_ERROR_LIMITS = { message: 2000, fields: 100, field: 200, fieldMessage: 500 } as const;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly details: {
      fields?: { field: string; message: string }[];
      cause?: unknown;
      /** Seconds until a retry can succeed (`Retry-After`): `rate_limited` (1 unless said), `idempotency_key_in_use`. */
      retryAfterS?: number;
      /** A checkout session's state, said with a refusal of what that state does not allow (the API's `error.state`). */
      state?: string;
    } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "AppError";
    this.status = APP_ERROR_STATUS[code];
  }

  /**
   * The JSON body of the checkout sessions API, `{ error: { code, message, fields?, state? } }`,
   * within API_ERROR_LIMITS: a request with many bad fields is still told the first ones.
   */
  toBody() {
    const { message, field, fieldMessage, fields } = API_ERROR_LIMITS;
    return {
      error: {
        code: this.code,
        message: clip(this.message, message),
        ...(this.details.fields
          ? {
              fields: this.details.fields
                .slice(0, fields)
                .map((f) => ({ field: clip(f.field, field), message: clip(f.message, fieldMessage) })),
            }
          : {}),
        ...(this.details.state ? { state: this.details.state } : {}),
      },
    };
  }
}

/** Seconds a client is told to wait (`Retry-After`) when the database cannot be reached. */
export const DATABASE_RETRY_AFTER_S = 10;

export const INTERNAL_MESSAGE = "Something went wrong on our side. Please try again.";
export const UNAVAILABLE_MESSAGE = "The service is briefly unavailable. Please try again in a moment.";

/**
 * Any error as the AppError it is answered as, decided here once: an AppError as it is; the
 * database unreachable (lib/db/unavailable.ts: refused, reset, timed out…) as `database_unavailable`
 * (503, try again in a moment); anything else as `internal` (500). The original is the cause.
 */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (isDatabaseUnavailable(error)) return new AppError("database_unavailable", UNAVAILABLE_MESSAGE, { cause: error });
  return new AppError("internal", INTERNAL_MESSAGE, { cause: error });
}

/** The headers of an error answer: `Retry-After` when it is worth retrying soon. */
export function errorHeaders(error: AppError, headers?: HeadersInit): Headers {
  const all = new Headers(headers);
  if (error.code === "database_unavailable") all.set("Retry-After", String(DATABASE_RETRY_AFTER_S));
  if (error.code === "rate_limited" || error.details.retryAfterS !== undefined) {
    all.set("Retry-After", String(Math.max(1, Math.ceil(error.details.retryAfterS ?? 1))));
  }
  return all;
}

/** A JSON error response; an unexpected error is logged and answered as `internal` (or `database_unavailable`). */
export function errorResponse(error: unknown, headers?: HeadersInit): Response {
  const answer = toAppError(error);
  // A refusal is worth a line (which code, which fields), never what was sent.
  if (answer.status < 500) loggerFor("http").info({ err: answer }, "request refused");
  else if (answer.code === "database_unavailable") logError(loggerFor("http"), "request failed: the database is unreachable", error);
  else logError(loggerFor("http"), error instanceof AppError ? "request failed" : "unexpected error", error);
  return Response.json(answer.toBody(), { status: answer.status, headers: errorHeaders(answer, headers) });
}
