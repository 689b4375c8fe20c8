import type { PartnerRow } from "@/lib/db/schema";

/**
 * The credential rule (docs/contributors/architecture.md, "Tenancy"), written once: which partner API key and which agency a
 * partner's calls use. The composition (lib/app-context.ts) builds its clients with it, and the
 * back-office shows its agency switcher from it. Pure: no key is read here, only passed through.
 */

type CredentialFields = Pick<PartnerRow, "financingApiKey" | "financingAgencyId">;

export interface AgencyScope {
  /** The agency sent in the agency header; undefined with an agency key (the key's own). */
  id: number | undefined;
  /**
   * Whether the staff member may pick another agency: only a partner with its own management group
   * key. A partner under the deployment's group key is one agency of someone else's group.
   */
  switchable: boolean;
}

export interface FinancingCredential {
  apiKey: string;
  agency: AgencyScope;
}

/**
 * Which agency a partner's calls act for, and whether its staff may switch it. `chosenAgencyId` is
 * the agency a staff member of a partner with its own group key picked (null: none picked).
 */
export function agencyScope(partner: CredentialFields, chosenAgencyId: number | null, deploymentAgencyId: number | undefined): AgencyScope {
  const ownGroupKey = partner.financingApiKey !== null && partner.financingAgencyId !== null;
  if (ownGroupKey) return { id: chosenAgencyId ?? partner.financingAgencyId ?? undefined, switchable: true };
  // The partner's agency under the deployment's key; with a key of its own (an agency key), none.
  return { id: partner.financingAgencyId ?? (partner.financingApiKey ? undefined : deploymentAgencyId), switchable: false };
}

/** The partner's own key (an agency key, or a group key with its agency), else the deployment's. */
export function financingCredential(
  partner: CredentialFields,
  deployment: { apiKey: string; agencyId: number | undefined },
  chosenAgencyId: number | null = null,
): FinancingCredential {
  return {
    apiKey: partner.financingApiKey ?? deployment.apiKey,
    agency: agencyScope(partner, chosenAgencyId, deployment.agencyId),
  };
}
