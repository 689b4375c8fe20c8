"use server";

import { z } from "zod";
import type { RefundErrors, RefundState } from "@/components/admin/form-states";
import { operationIdField, reasonField, reasonProblem, typedField } from "@/lib/backoffice/operations/form-fields";
import { refundStep } from "@/lib/backoffice/refunds/refund";
import type { RefundValues } from "@/lib/backoffice/refunds/review";
import { staffAction } from "@/lib/backoffice/staff-action";
import { requestIp } from "@/lib/identity/staff";
import { formAction } from "@/lib/validated-action";

/** A refund's steps: edit the charges, review the server's computation, confirm (lib/backoffice/refunds/refund.ts decides). */

const refundSchema = z.object({
  operationId: operationIdField,
  intent: z.enum(["review", "confirm", "edit"]),
  agencyFee: z.string().max(50).default(""),
  providerFee: z.string().max(50).default(""),
  reason: reasonField,
  /** The total the staff member confirmed, in cents. */
  expectedTotal: z
    .string()
    .regex(/^-?\d{1,15}$/)
    .optional(),
});

const refundValidated = staffAction(
  refundSchema,
  async (staff, input) => {
    const values: RefundValues = { agencyFee: input.agencyFee, providerFee: input.providerFee, reason: input.reason };
    return refundStep(
      staff,
      { operationId: input.operationId, intent: input.intent, values, expectedTotal: input.expectedTotal },
      { ip: await requestIp() },
    );
  },
  { permission: "refund" },
);

export const refundAction = formAction<RefundState>()(refundValidated, {
  invalid: (issues, formData) => {
    // A hand-made form (no operation id, no step): nothing the page could go on with.
    if (issues.some((issue) => !["agencyFee", "providerFee", "reason"].includes(issue.field))) {
      return { step: "failed", reason: "not_found", status: null };
    }
    // The form again as typed, each refused field said as such: nothing is lost.
    const values: RefundValues = {
      agencyFee: typedField(formData, "agencyFee"),
      providerFee: typedField(formData, "providerFee"),
      reason: typedField(formData, "reason"),
    };
    const errors: RefundErrors = {};
    for (const { field } of issues) {
      if (field === "reason") errors.reason = reasonProblem(values.reason);
      else if (field === "agencyFee" || field === "providerFee") errors[field] = "amount";
    }
    return { step: "edit", values, errors };
  },
  valid: (outcome) => outcome,
});
