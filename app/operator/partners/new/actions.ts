"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import type { CreatePartnerState } from "@/components/operator/form-states";
import { getAppContext } from "@/lib/app-context";
import { operatorAction } from "@/lib/operator/operator-action";
import { formAction } from "@/lib/validated-action";
import { createPartner } from "@/lib/operator/partners/partners-admin";
import { PARTNER_ID_MAX_LENGTH, PARTNER_NAME_MAX_LENGTH } from "@/lib/operator/partners/settings";

/** The new partner's form: its id and name; the rules (and their messages) are lib/operator/partners/settings.ts. */
const schema = z.object({
  // Longer than allowed is said on the field, not refused as a malformed form.
  id: z
    .string()
    .max(PARTNER_ID_MAX_LENGTH * 4)
    .default(""),
  name: z
    .string()
    .max(PARTNER_NAME_MAX_LENGTH * 4)
    .default(""),
});

const validated = operatorAction(schema, async (operator, input) => {
  const { db } = await getAppContext();
  return { input, result: await createPartner(db, input, operator.actor) };
});

export const createPartnerAction = formAction<CreatePartnerState>()(validated, {
  invalid: () => ({ errors: { id: "invalid" } }),
  valid: ({ input, result }) => {
    if (result.ok) redirect(`/operator/partners/${encodeURIComponent(result.id)}?notice=created`);
    return { values: input, errors: result.errors };
  },
});
