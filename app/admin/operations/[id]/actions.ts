"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import type { CancelState } from "@/components/admin/form-states";
import { cancelOperation } from "@/lib/backoffice/operations/cancel";
import { operationIdField, reasonField, reasonProblem, typedField } from "@/lib/backoffice/operations/form-fields";
import { staffAction } from "@/lib/backoffice/staff-action";
import { requestIp } from "@/lib/identity/staff";
import { formAction } from "@/lib/validated-action";

/** Cancelling an operation from its page (lib/backoffice/operations/cancel.ts decides). */

const cancelValidated = staffAction(z.object({ operationId: operationIdField, reason: reasonField }), async (staff, input) => ({
  input,
  result: await cancelOperation(staff, input, { ip: await requestIp() }),
}));

export const cancelOperationAction = formAction<CancelState>()(cancelValidated, {
  invalid: (issues, formData) => {
    // Not an operation id: a hand-made form, for no operation the page could show.
    if (issues.some((issue) => issue.field !== "reason")) redirect("/admin/operations");
    const reason = typedField(formData, "reason");
    return { error: reasonProblem(reason), reason };
  },
  valid: ({ input, result }) => {
    const page = `/admin/operations/${encodeURIComponent(input.operationId)}`;
    if (result.ok) redirect(`${page}?notice=cancelled`);
    if (result.reason === "too_long" || result.reason === "unavailable") return { error: result.reason, reason: input.reason };
    if (result.reason === "not_cancellable") {
      redirect(`${page}?notice=not_cancellable${result.status ? `&was=${encodeURIComponent(result.status)}` : ""}`);
    }
    // Someone else's operation, or unknown: its page says "not found".
    redirect(page);
  },
});
