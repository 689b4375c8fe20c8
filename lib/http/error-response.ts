import { AppError, errorHeaders, INTERNAL_MESSAGE, UNAVAILABLE_MESSAGE } from "@/lib/app-error";
import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { logError, loggerFor } from "@/lib/logger";

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

/** A JSON error response; an unexpected error is logged and answered as `internal` (or `database_unavailable`). */
export function errorResponse(error: unknown, headers?: HeadersInit): Response {
  const answer = toAppError(error);
  // A refusal is worth a line (which code, which fields), never what was sent.
  if (answer.status < 500) loggerFor("http").info({ err: answer }, "request refused");
  else if (answer.code === "database_unavailable") logError(loggerFor("http"), "request failed: the database is unreachable", error);
  else logError(loggerFor("http"), error instanceof AppError ? "request failed" : "unexpected error", error);
  return Response.json(answer.toBody(), { status: answer.status, headers: errorHeaders(answer, headers) });
}
