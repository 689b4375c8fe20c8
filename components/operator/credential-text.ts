import { type PartnerConsoleMessages } from "@/lib/i18n/partner-console-messages";
import { fill } from "@/lib/text/template";
import type { CredentialSummary } from "@/lib/operator/partners/credential";

/** A partner's financing credential in words: its kind, the key's last four, the agency. Never the key. */
export function credentialText(credential: CredentialSummary, m: PartnerConsoleMessages): string {
  const agency = credential.agencyId === null ? "" : String(credential.agencyId);
  const last4 = credential.last4 ?? "????";
  if (credential.kind === "deployment") return agency ? fill(m.credentials.deploymentAgency, { agency }) : m.credentials.deployment;
  return fill(credential.kind === "agency" ? m.credentials.agency : m.credentials.group, { last4, agency });
}
