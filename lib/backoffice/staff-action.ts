import "server-only";
import { redirect } from "next/navigation";
import type { z } from "zod";
import { guardedAction, type ActionResult } from "@/lib/validated-action";
import { can, type Permission } from "@/lib/identity/permissions";
import { auditPermissionRefused, staffForAction, type StaffContext } from "@/lib/identity/staff";

/**
 * Every back-office server action: the staff member first (no session: refused, nothing runs, and
 * the browser goes to the sign-in page), then their permission when the action needs one (missing:
 * refused, audited, nothing runs, back to the home page: an action is reached by a hand-made post
 * only, the page offers it to no one who may not), then the form and the action through the one
 * guarded shell (lib/validated-action.ts).
 */
export function staffAction<S extends z.ZodType, T>(
  schema: S,
  run: (staff: StaffContext, input: z.output<S>, formData: FormData) => Promise<T>,
  options: { permission?: Permission } = {},
): (previous: unknown, formData: FormData) => Promise<ActionResult<T>> {
  return guardedAction(() => staffFor(options.permission), schema, run);
}

/** The signed-in staff member allowed `permission` (if any); otherwise the request ends in a redirect. */
async function staffFor(permission: Permission | undefined): Promise<StaffContext> {
  const staff = await staffForAction();
  if (!staff) redirect("/admin/login");
  if (permission && !can(staff.user, permission)) {
    await auditPermissionRefused(staff.db, { partnerId: staff.partner.id, user: staff.user }, { permission }, "a back-office action");
    redirect("/admin");
  }
  return staff;
}
