"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import type { SecurityFormState } from "@/components/admin/form-states";
import { staffPasswordField } from "@/lib/identity/form-fields";
import { resetPassword } from "@/lib/identity/password-reset";
import { requestIp } from "@/lib/identity/staff";
import { getAppContext } from "@/lib/app-context";
import { formAction, validatedAction } from "@/lib/validated-action";

/** A password reset link's form: the new password, twice. Nothing here logs a password. */

const resetValidated = validatedAction(
  z.object({ token: z.string().max(100), password: staffPasswordField, confirm: staffPasswordField }),
  async ({ token, password, confirm }) => {
    const { db } = await getAppContext();
    return resetPassword(db, token, { password, confirm }, { ip: await requestIp() });
  },
);

export const resetPasswordAction = formAction<SecurityFormState>()(resetValidated, {
  invalid: () => ({ error: "invalid" }),
  valid: (outcome) => {
    // Every session ended: the sign-in, with the new password and the second factor.
    if (outcome.ok) redirect("/admin/login?reset=done");
    return { error: outcome.reason };
  },
});
