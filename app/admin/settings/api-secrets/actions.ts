"use server";

import { refresh } from "next/cache";
import { apiSecretsState } from "@/components/partners/api-secrets-rows";
import type { ApiSecretsState } from "@/components/partners/api-secrets-state";
import { apiSecretIntentSchema, runApiSecretIntent, type ApiSecretOutcome } from "@/lib/backoffice/api-secrets/api-secrets";
import { requestIp } from "@/lib/identity/staff";
import { staffAction } from "@/lib/backoffice/staff-action";
import { getEnv } from "@/lib/config/env";
import { getLocale } from "@/lib/i18n/server";
import { formAction } from "@/lib/validated-action";

/*
 * The partner's own API secrets, from its back-office: created, rotated, revoked by its
 * administrators (the `api-secrets` permission; anyone else is refused and audited by staffAction)
 * on their partner only (another partner's secret id is "not found"), audited by them.
 */

const validated = staffAction(
  apiSecretIntentSchema,
  async (staff, input) =>
    runApiSecretIntent(
      staff.db,
      staff.partner.id,
      input,
      // Their permissions decide which scopes they may give (the refund one needs the refund permission).
      { kind: "staff", id: staff.user.id, name: staff.user.name, ip: await requestIp(), permissions: staff.user },
      getEnv().financing.environment,
    ),
  { permission: "api-secrets" },
);

export const apiSecretAction = formAction<ApiSecretsState>()(validated, {
  invalid: () => answer({ error: "invalid" }),
  valid: answer,
});

async function answer(outcome: ApiSecretOutcome | { error: "invalid" }) {
  // The list shows the change at once (the new secret is in this answer, not in the page).
  refresh();
  return apiSecretsState(outcome, await getLocale());
}
