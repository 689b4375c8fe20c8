import { isFinancingApiError } from "@/lib/financing/errors";
import { logError, loggerFor } from "@/lib/logger";

const log = loggerFor("backoffice");

/**
 * What staff are told when a partner API call fails, beyond the named business errors each page
 * explains itself. Anything that is not a partner API error is a bug: rethrown, never hidden.
 */
export type ApiProblem = "unavailable" | "auth" | "forbidden" | "not_found";

export function apiProblem(error: unknown, context: string): ApiProblem {
  if (!isFinancingApiError(error)) throw error;
  logError(log, `backoffice: ${context} failed`, error);
  if (error.status === 401) return "auth";
  if (error.status === 403) return "forbidden";
  if (error.status === 404) return "not_found";
  return "unavailable";
}
