"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import type { SecurityFormState } from "@/components/admin/form-states";
import { changePassword } from "@/lib/identity/auth";
import { clearStaffCookie, requestIp, staffForAction } from "@/lib/identity/staff";
import { staffPasswordField as password } from "@/lib/identity/form-fields";
import { formAction, validatedAction } from "@/lib/validated-action";

/** The password change. Nothing here logs a password. */

// Password change (ends the other sessions)

const passwordValidated = validatedAction(z.object({ current: password, next: password, confirm: password }), async (input) => {
  const staff = await staffForAction();
  if (!staff) return { redirect: "/admin/login" } as const;
  const result = await changePassword(staff.db, staff, input, await requestIp());
  if (!result.ok && result.reason === "ended") {
    await clearStaffCookie();
    return { redirect: "/admin/login?password=ended" } as const;
  }
  if (!result.ok) return { error: result.reason } as const;
  return { redirect: `/admin/security?password=changed&ended=${result.endedSessions}` } as const;
});

export const changePasswordAction = formAction<SecurityFormState>()(passwordValidated, {
  invalid: () => ({ error: "invalid" }),
  valid: (outcome) => {
    if (outcome.redirect) redirect(outcome.redirect);
    return { error: outcome.error };
  },
});
