"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import type { SecurityFormState } from "@/components/admin/form-states";
import { completeEnrolment } from "@/lib/identity/second-factor-steps";
import { anyStaffSessionForAction, codePath, homeFor, requestIp, setStaffCookie } from "@/lib/identity/staff";
import { staffCodeField as code, staffPasswordField as password } from "@/lib/identity/form-fields";
import { formAction, validatedAction } from "@/lib/validated-action";

/** Enrolment in two-step verification, for a session that may enrol. Nothing here logs a password or a code. */

// Enrolment

const enrolValidated = validatedAction(z.object({ code, password: password, confirm: password }), async (input) => {
  const staff = await anyStaffSessionForAction();
  if (!staff) return { redirect: "/admin/login" } as const;
  // Someone enrolled already: the second factor they have first (a password alone never re-enrols).
  const back = staff.partner ? "/admin/security" : homeFor(staff.user.role);
  if (staff.stage === "code") return { redirect: codePath(back) } as const;
  if (staff.stage === "full") return { redirect: back } as const;
  const result = await completeEnrolment(staff.db, staff, { ...input, code: input.code.trim() }, await requestIp());
  if (!result.ok) return { error: result.reason === "not_allowed" ? "invalid" : result.reason } as const;
  // Just proven: the app has the secret. Signed in with both factors, on a new token.
  await setStaffCookie(result.token);
  return { codes: result.recoveryCodes } as const;
});

export const enrolAction = formAction<SecurityFormState>()(enrolValidated, {
  invalid: () => ({ error: "invalid" }),
  valid: (outcome) => {
    if (outcome.redirect) redirect(outcome.redirect);
    if (outcome.codes) return { recoveryCodes: outcome.codes };
    return { error: outcome.error };
  },
});
