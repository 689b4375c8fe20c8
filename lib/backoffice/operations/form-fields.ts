import { z } from "zod";
import { safeText } from "@/lib/validation/text";
import { OPERATION_ID } from "./ownership";

/*
 * The fields of the back-office's operation forms (cancel, refund, resend), shared by their
 * server actions, and how a refused one is sent back as typed.
 */

/** An operation named in a back-office form (a hidden field): the partner API's ids, never a URL. */
export const operationIdField = z.string().regex(OPERATION_ID, "is not an operation id");

/** Longer than the API's 255 on purpose: the limit is checked after, with a message staff can act on. */
export const REASON_FIELD_MAX = 10_000;

export const reasonField = z
  .string()
  .check(safeText({ multiline: true }))
  .max(REASON_FIELD_MAX)
  .default("");

/** A form field as typed, for a form sent back with its errors (a hand-made post may send a file). */
export function typedField(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === "string" ? value.slice(0, 20_000) : "";
}

/** Why the schema refused a reason: too long, or characters that cannot be used (safeText). */
export function reasonProblem(reason: string): "too_long" | "characters" {
  return reason.length > REASON_FIELD_MAX ? "too_long" : "characters";
}
