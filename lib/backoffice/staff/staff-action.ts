import "server-only";
import { redirect } from "next/navigation";
import { z } from "zod";
import { validatedAction, type ActionResult } from "@/lib/validated-action";
import { OPERATION_ID } from "../operations/ownership";
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

/** An operation named in a back-office form (a hidden field): the partner API's ids, never a URL. */
export const operationIdField = z.string().regex(OPERATION_ID, "is not an operation id");
