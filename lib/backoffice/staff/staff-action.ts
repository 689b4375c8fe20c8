import "server-only";
import { redirect } from "next/navigation";
import type { z } from "zod";
import { validatedAction, type ActionResult } from "@/lib/validated-action";
import { staffForAction, type StaffContext } from "./staff";

/**
 * Every back-office server action: the staff member first (no session: refused, nothing runs, and
 * the browser goes to the sign-in page), then the form through validatedAction, then the action.
 */
export function staffAction<S extends z.ZodType, T>(
  schema: S,
  run: (staff: StaffContext, input: z.output<S>, formData: FormData) => Promise<T>,
): (previous: unknown, formData: FormData) => Promise<ActionResult<T>> {
  return async (previous, formData) => {
    const staff = await staffForAction();
    if (!staff) redirect("/admin/login");
    return validatedAction(schema, (input: z.output<S>, data: FormData) => run(staff, input, data))(previous, formData);
  };
}
