import { logError, loggerFor } from "@/lib/logger";

/**
 * The app's one error type: a code that maps to an HTTP status and to a message safe to show.
 * Details (causes, identifiers) are for logs, never for the response.
 */
export const APP_ERROR_STATUS = {
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  validation_failed: 400,
  payload_too_large: 413,
  conflict: 409,
  session_expired: 410,
  financing_unavailable: 502,
  internal: 500,
} as const;
export type AppErrorCode = keyof typeof APP_ERROR_STATUS;

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly details: { fields?: { field: string; message: string }[]; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "AppError";
    this.status = APP_ERROR_STATUS[code];
  }

  /** The JSON body of the checkout sessions API: `{ error: { code, message, fields? } }`. */
  toBody() {
    return { error: { code: this.code, message: this.message, ...(this.details.fields ? { fields: this.details.fields } : {}) } };
  }
}

/** A JSON error response; an unexpected error is logged and answered as `internal`. */
export function errorResponse(error: unknown, headers?: HeadersInit): Response {
  if (error instanceof AppError) {
    // A refusal is worth a line (which code, which fields), never what was sent.
    if (error.status < 500) loggerFor("http").info({ err: error }, "request refused");
    else logError(loggerFor("http"), "request failed", error);
    return Response.json(error.toBody(), { status: error.status, headers });
  }
  logError(loggerFor("http"), "unexpected error", error);
  const internal = new AppError("internal", "Something went wrong on our side. Please try again.");
  return Response.json(internal.toBody(), { status: internal.status, headers });
}
