import type { Partner } from "@/lib/checkout/partners";

/**
 * Access rules of the back-office that need no request: which agency a staff member's calls act
 * for, and where a sign-in may lead back to.
 */

export interface AgencyScope {
  /** The agency sent in the agency header; undefined with an agency key (the key's own). */
  id: number | undefined;
  /**
   * Whether the staff member may pick another agency: only a partner with its own management group
   * key. A partner under the deployment's group key is one agency of someone else's group.
   */
  switchable: boolean;
}

/** Which agency a call acts for, and whether staff may switch it (see AgencyScope). */
export function agencyScope(partner: Pick<Partner, "financingApiKey" | "financingAgencyId">, sessionAgencyId: number | null, deploymentAgencyId: number | undefined): AgencyScope {
  const ownGroupKey = partner.financingApiKey !== null && partner.financingAgencyId !== null;
  if (ownGroupKey) return { id: sessionAgencyId ?? partner.financingAgencyId ?? undefined, switchable: true };
  // The same rule as the checkout's clientFor: the partner's agency under the deployment's key.
  return { id: partner.financingAgencyId ?? (partner.financingApiKey ? undefined : deploymentAgencyId), switchable: false };
}

/** A path inside the back-office: the only place a sign-in may lead back to (no open redirect). */
export function isAdminPath(value: unknown): value is string {
  if (typeof value !== "string" || value.length > 1000) return false;
  if (!/^\/admin(\/|\?|$)/.test(value) || value.startsWith("/admin/login")) return false;
  try {
    const probe = "http://origin.invalid";
    return new URL(value, probe).origin === probe;
  } catch {
    return false;
  }
}

