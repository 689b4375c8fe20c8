"use server";

import { z } from "zod";
import { recordAudit } from "@/lib/audit/audit";
import { checkCurrentPassword } from "@/lib/identity/auth";
import { deleteOtherStaffSessions } from "@/lib/identity/staff-sessions";
import { turnOffSecondFactor } from "@/lib/identity/second-factor-steps";
import { clearStaffCookie, ENROL_PATH, requestIp, staffForAction, type StaffContext } from "@/lib/identity/staff";
import { staffPasswordField as password } from "@/lib/identity/form-fields";
import { redirectingAction, validatedAction } from "@/lib/validated-action";

/*
 * The security page's own actions: sign out everywhere else, and turning two-step verification off.
 * Each validates its form with zod first and needs a session signed in with both factors. Nothing
 * here logs or records a password.
 */

function who(staff: StaffContext, ip: string) {
  return { partnerId: staff.partner.id, staff: { id: staff.user.id, name: staff.user.name }, ip };
}

// Sign out everywhere else

const signOutOthersValidated = validatedAction(z.object({}), async () => {
  const staff = await staffForAction();
  if (!staff) return "/admin/login";
  const ended = await deleteOtherStaffSessions(staff.db, staff.user.id, staff.token);
  await recordAudit(staff.db, {
    kind: "sessions_revoked",
    result: "ok",
    ...who(staff, await requestIp()),
    details: { endedSessions: ended },
  });
  return `/admin/security?ended=${ended}`;
});

export const signOutOthersAction = redirectingAction(signOutOthersValidated, "/admin/security");

// Turning two-step verification off (to set it up again, on a new phone say)

const disableValidated = validatedAction(z.object({ password }), async (input) => {
  const staff = await staffForAction();
  if (!staff) return "/admin/login";
  const ip = await requestIp();
  const current = await checkCurrentPassword(staff.db, staff, input.password);
  if (current !== "ok") {
    await recordAudit(staff.db, {
      kind: "two_factor_disabled",
      result: "refused",
      ...who(staff, ip),
      details: { reason: current === "ended" ? "ended" : "wrong_password" },
    });
    if (current === "wrong") return "/admin/security?disable=refused";
    await clearStaffCookie();
    return "/admin/login?password=ended";
  }
  const endedSessions = await turnOffSecondFactor(staff.db, staff);
  await recordAudit(staff.db, { kind: "two_factor_disabled", result: "ok", ...who(staff, ip), details: { endedSessions } });
  return ENROL_PATH;
});

export const disableTwoFactorAction = redirectingAction(disableValidated, "/admin/security");
