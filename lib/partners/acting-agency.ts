/**
 * The pure half of the ownership rule (lib/backoffice/operations/ownership.ts): which agency a partner's calls
 * act for, and whether that agency makes its operations the partner's. No key is stored or logged
 * here; a key is only read for the agency number a sandbox key's published name carries.
 */

/** The sandbox's agency keys name their agency (`fk_test_sandbox_agency_101`); production keys do not. */
const SANDBOX_AGENCY_KEY = /^fk_test_sandbox_agency_(\d{1,15})$/;

export function agencyOfSandboxKey(apiKey: string): number | undefined {
  const match = SANDBOX_AGENCY_KEY.exec(apiKey);
  return match ? Number(match[1]) : undefined;
}

/**
 * The agency a partner's partner API calls act for: the one in the agency header when there is
 * one; with an agency key, the key's own agency, which no call names: `FINANCING_KEY_AGENCY_ID`
 * for the deployment's key, else the number a sandbox key's name carries. Undefined when unknown
 * (a production agency key of the partner's own): then only the partner's own checkout sessions'
 * operations are its.
 */
export function actingAgencyId(
  credential: { apiKey: string; agency: { id: number | undefined } },
  deployment: { apiKey: string; keyAgencyId?: number | undefined },
): number | undefined {
  if (credential.agency.id !== undefined) return credential.agency.id;
  if (credential.apiKey === deployment.apiKey && deployment.keyAgencyId !== undefined) return deployment.keyAgencyId;
  return agencyOfSandboxKey(credential.apiKey);
}

/** An agency's operations are the partner's only when the agency is assigned to it, explicitly. */
export function ownsByAgency(actingAgency: number | undefined, assigned: readonly number[]): boolean {
  return actingAgency !== undefined && assigned.includes(actingAgency);
}
