/**
 * One signed notification sent to a URL the way the app's background worker sends it
 * (lib/checkout/background/notification-send.ts, sendSigned), under the configuration this process is
 * started with: the address policy of FINANCING_API_ENVIRONMENT and NOTIFICATION_PRIVATE_HOSTS, and
 * the CAs of NOTIFICATION_CA_FILE. Prints the outcome as JSON. Used by e2e/production-path.spec.ts
 * until a partner can be created in the product; run it with the app's settings:
 *
 *   node --import tsx --import ./scripts/server-only-stub.mjs e2e/support/notification-probe.ts <url> <whsec_…>
 */
import { sendSigned } from "@/lib/checkout/background/notification-send";
import { getEnv } from "@/lib/config/env";
import { sealPartnerSecret } from "@/lib/partners/secrets";
import { notificationPolicy } from "@/lib/security/network/addresses";

const [url, secret] = process.argv.slice(2);
if (!url || !secret) {
  process.stderr.write("usage: notification-probe.ts <url> <signing secret>\n");
  process.exit(2);
}

const env = getEnv();
const partnerId = "p_probe";
const outcome = await sendSigned(
  {
    id: partnerId,
    notificationUrl: url,
    // Sealed under SECRETS_KEYS, as the partner's row holds it.
    signingSecret: sealPartnerSecret(partnerId, "signingSecret", secret),
    previousSigningSecret: null,
    previousSigningSecretExpiresAt: null,
  },
  `msg_probe_${Date.now()}`,
  JSON.stringify({ type: "notification.test", timestamp: new Date().toISOString(), data: { test: true } }),
  { policy: notificationPolicy(env.financing.environment) },
);
process.stdout.write(`${JSON.stringify(outcome)}\n`);
