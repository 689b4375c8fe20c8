import "server-only";
import type { Db } from "@/lib/db";
import type { Keyring } from "@/lib/config/keyring";
import { resealCustomerData } from "@/lib/checkout/session/customer-store";
import { resealTotpSecrets } from "@/lib/identity/totp-secret-store";
import { resealPartnerSecrets } from "@/lib/partners/secrets";

export interface ResealReport {
  /** Partners' API keys and signing secrets sealed again. */
  partnerSecrets: number;
  /**
   * Staff's second-factor secrets, enrolled and pending: sealed again (also those sealed for their
   * column alone, now bound to their row), and the enrolled ones that do not open for their member.
   */
  staffSecrets: { resealed: number; unreadable: number };
  /** Customers' data: sealed again (with its search hashes), and the rows no listed key opens. */
  customerData: { resealed: number; unreadable: number };
}

/**
 * Everything sealed at rest, sealed again under the first key of the ring: what is still plaintext
 * and what an older key sealed. Run at every start (lib/startup.ts) and by `npm run admin --
 * reseal-secrets`: rotation is "put the new key first, re-seal, then drop the old one". A partner's
 * secret no listed key opens throws SecretOpenError (the server cannot work for that partner); a
 * staff secret or a customer's data that none opens is counted, and left for its readers to report.
 */
export async function resealAll(db: Db, keyring: Keyring): Promise<ResealReport> {
  const partnerSecrets = await resealPartnerSecrets(db, keyring);
  const staffSecrets = await resealTotpSecrets(db, keyring);
  const customerData = await resealCustomerData(db, keyring);
  return { partnerSecrets, staffSecrets, customerData };
}
