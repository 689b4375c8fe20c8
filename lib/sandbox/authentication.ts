import { findAgency, type SandboxKey } from "./accounts";
import { authError, generalError, validationError } from "./errors";
import type { Caller } from "./operation";

/**
 * Who a partner API call is: the seeded key its key header names (looked up by the engine, in the
 * sandbox's mode) and, for a management group key, the agency header's agency.
 * `realNow` dates the error bodies (read only on an error).
 */
export function authenticate(
  key: SandboxKey | undefined,
  apiKey: string | null,
  agencyHeader: string | null,
  options: { agencyExempt?: boolean },
  realNow: () => number,
): Caller {
  if (apiKey === null || apiKey.trim() === "") throw authError("Missing API key");
  if (!key) throw authError("Invalid API key");
  if (key.kind === "agency") {
    const agencyId = key.agencyIds[0]!;
    if (agencyHeader !== null && agencyHeader.trim() !== String(agencyId)) {
      throw generalError(403, "Forbidden", "An agency key acts for its own agency only", realNow());
    }
    return { key, agencyId, account: key.account };
  }
  if (options.agencyExempt) return { key, agencyId: 0, account: key.account };
  if (agencyHeader === null || agencyHeader.trim() === "") {
    throw validationError([{ field: "X-Service-Agency", message: "is required with a management group key" }]);
  }
  if (!/^\d+$/.test(agencyHeader.trim())) {
    throw validationError([{ field: "X-Service-Agency", message: "must be an agency id" }]);
  }
  const agencyId = Number(agencyHeader.trim());
  const agency = findAgency(agencyId);
  if (!agency || !agency.active || !key.agencyIds.includes(agencyId)) {
    throw generalError(403, "Forbidden", `Agency ${agencyId} is not an active agency of this group`, realNow());
  }
  return { key, agencyId, account: key.account };
}
