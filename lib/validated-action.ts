import type { z } from "zod";
import { inActionScope } from "@/lib/ops/action-scope";

/**
 * The one wrapper every server action goes through (nextjs/saas-starter's `validatedAction`): the
 * form data is parsed with a zod schema first, and the action only runs on valid input. Works with
 * `useActionState` (previous state first) and with a plain `<form action>`, JavaScript or not.
 */
export type ActionResult<T> = T | { ok: false; invalid: { field: string; message: string }[] };

export function validatedAction<S extends z.ZodType, T, P = unknown>(
  schema: S,
  action: (input: z.output<S>, formData: FormData, previous: P) => Promise<T>,
) {
  // With the request's id on its log lines; an unexpected error is logged safely, never by Next.
  return (previous: P, formData: FormData): Promise<ActionResult<T>> =>
    inActionScope(action.name || "action", () => run(previous, formData));

  async function run(previous: P, formData: FormData): Promise<ActionResult<T>> {
    // Anyone can post an action with other arguments than a form (a hand-made request): refused.
    if (!isForm(formData)) return { ok: false, invalid: [{ field: "(form)", message: "is not a form" }] };
    const parsed = schema.safeParse(Object.fromEntries(formData));
    if (!parsed.success) {
      return {
        ok: false,
        invalid: parsed.error.issues.map((issue) => ({ field: issue.path.map(String).join("."), message: issue.message })),
      };
    }
    return action(parsed.data, formData, previous);
  }
}

export function isForm(value: unknown): value is FormData {
  return value instanceof FormData;
}

/** What an action was called with, as a form: an empty one when it was not a form at all. */
export function formOf(value: unknown): FormData {
  return isForm(value) ? value : new FormData();
}
