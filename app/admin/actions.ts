"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { deleteStaffSession, setStaffSessionAgency } from "@/lib/identity/staff-sessions";
import { staffAction } from "@/lib/backoffice/staff-action";
import { anyStaffSessionForAction, clearStaffCookie, isAdminPath } from "@/lib/identity/staff";
import { isFinancingApiError } from "@/lib/financing/errors";
import { localRedirectTarget } from "@/lib/http/redirect-target";
import { validatedAction } from "@/lib/validated-action";
import { logError, loggerFor } from "@/lib/logger";

const log = loggerFor("backoffice");

/*
 * The actions of the back-office's frame, on every page: sign-out and the agency switcher. Each
 * route's own actions sit in its folder (login/, operations/[id]/, …). Each goes through
 * validatedAction (zod first); redirect() comes after any try/catch.
 */

const signOutValidated = validatedAction(z.object({}), async () => {
  // Any session, also one still waiting for its second factor.
  const staff = await anyStaffSessionForAction();
  if (staff) await deleteStaffSession(staff.db, staff.token);
  return { ok: true as const };
});

export async function signOutAction(formData: FormData): Promise<void> {
  await signOutValidated(undefined, formData);
  await clearStaffCookie();
  redirect("/admin/login?signedOut=1");
}

// Agency switcher (management group keys)

const switchAgencyValidated = staffAction(
  z.object({ agencyId: z.coerce.number().int().positive(), returnTo: z.string().max(1000).default("/admin") }),
  async (staff, { agencyId, returnTo }) => {
    // An operation page belongs to one agency: after a switch, the list of the new one.
    // Checked before it reaches the Location header (CR/LF, non-Latin-1, another origin: the list).
    const target = localRedirectTarget(returnTo, { under: "/admin" });
    const back = !isAdminPath(target) ? "/admin" : target.startsWith("/admin/operations/") ? "/admin/operations" : target;
    if (!staff.agency.switchable) return { ok: true as const, back };
    try {
      const agencies = await staff.client.listAgencies();
      if (agencies.some((agency) => agency.id === agencyId)) await setStaffSessionAgency(staff.db, staff.token, agencyId);
    } catch (error) {
      if (!isFinancingApiError(error)) throw error;
      logError(log, "backoffice: listing agencies for a switch failed", error);
    }
    return { ok: true as const, back };
  },
);

export async function switchAgencyAction(formData: FormData): Promise<void> {
  const outcome = await switchAgencyValidated(undefined, formData);
  redirect(outcome.ok ? outcome.back : "/admin");
}
