"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import type { SecurityFormState } from "@/components/admin/form-states";
import { completeSecondFactor } from "@/lib/identity/second-factor-steps";
import { anyStaffSessionForAction, clearStaffCookie, ENROL_PATH, landingPath, requestIp, setStaffCookie } from "@/lib/identity/staff";
import { staffCodeField as code } from "@/lib/identity/form-fields";
import { formAction, validatedAction } from "@/lib/validated-action";
import { safeText } from "@/lib/validation/text";

/** The sign-in's second step: the TOTP or a recovery code, for a session waiting for it. Nothing here logs a code. */

// The sign-in's second step

const secondFactorValidated = validatedAction(
  z.object({ code, next: z.string().check(safeText()).max(1000).optional() }),
  async ({ code, next }) => {
    const staff = await anyStaffSessionForAction();
    if (!staff) return { redirect: "/admin/login" } as const;
    // Each role to its own area: an operator's console, a partner's back-office.
    const target = landingPath(staff.user.role, next);
    if (staff.stage === "enrol") return { redirect: ENROL_PATH } as const;
    if (staff.stage === "full") return { redirect: target } as const;
    if (code.trim() === "") return { error: "missing" } as const;
    const result = await completeSecondFactor(staff.db, staff, code.trim(), await requestIp());
    if (result.ok) {
      // Signed in with both factors: a new token, the one from the password step is dead.
      await setStaffCookie(result.token);
      return { redirect: target } as const;
    }
    if (result.reason === "ended") {
      await clearStaffCookie();
      return { redirect: "/admin/login?codes=ended" } as const;
    }
    return { error: result.reason } as const;
  },
);

export const secondFactorAction = formAction<SecurityFormState>()(secondFactorValidated, {
  invalid: () => ({ error: "invalid" }),
  valid: (outcome) => {
    if (outcome.redirect) redirect(outcome.redirect);
    return { error: outcome.error };
  },
});
