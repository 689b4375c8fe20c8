import "server-only";
import { unstable_rethrow } from "next/navigation";
import { AppError, INTERNAL_MESSAGE, UNAVAILABLE_MESSAGE } from "@/lib/app-error";
import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { inRequestScope } from "@/lib/http/request-scope";
import { logError, loggerFor } from "@/lib/logger";
import { noteRequestError } from "./error-pages";

// Beside the error pages rather than in lib/http: it tells them what failed, and lib/http sits
// below lib/ops.
const log = loggerFor("http");

/**
 * A server action's work: run with the request's id, and an error it did not expect logged by its
 * safe shape and replaced by one that holds nothing (what Next prints and the client is told):
 * `database_unavailable` when the database cannot be reached (the page then answers 503, "try
 * again in a moment", lib/ops/error-pages.ts), else `internal`.
 */
export function inActionScope<T>(name: string, fn: () => Promise<T>): Promise<T> {
  return inRequestScope(async () => {
    try {
      return await fn();
    } catch (error) {
      unstable_rethrow(error);
      // For the page a post without JavaScript gets back (Next does not report an action's error to
      // onRequestError there): 503 "try again in a moment" or 500, readable (lib/ops/error-pages.ts).
      noteRequestError(error);
      if (isDatabaseUnavailable(error)) {
        logError(log, "a server action failed: the database is unreachable", error, { action: name });
        throw new AppError("database_unavailable", UNAVAILABLE_MESSAGE);
      }
      logError(log, "a server action failed", error, { action: name });
      throw new AppError("internal", INTERNAL_MESSAGE);
    }
  });
}
