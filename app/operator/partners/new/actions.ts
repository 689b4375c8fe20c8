"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import type { CreatePartnerState } from "@/components/operator/form-states";
import { getAppContext } from "@/lib/app-context";
import { operatorAction } from "@/lib/operator/operator-action";
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

export async function createPartnerAction(previous: CreatePartnerState, formData: FormData): Promise<CreatePartnerState> {
  const submission = (previous?.submission ?? 0) + 1;
  const outcome = await validated(previous, formData);
  if ("invalid" in outcome) return { submission, errors: { id: "invalid" } };
  const { input, result } = outcome;
  if (result.ok) redirect(`/operator/partners/${encodeURIComponent(result.id)}?notice=created`);
  return { submission, values: input, errors: result.errors };
}
