import { redirect } from "next/navigation";
import type { z } from "zod";
import { inActionScope } from "@/lib/ops/action-scope";

/**
 * The one wrapper every server action goes through (nextjs/saas-starter's `validatedAction`): the
 * form data is parsed with a zod schema first, and the action only runs on valid input. Works with
 * `useActionState` (previous state first) and with a plain `<form action>`, JavaScript or not.
 */
export type ActionResult<T> = T | { ok: false; invalid: FieldIssue[] };

/** A refused field of a form: its name (dotted for a nested one) and zod's message. */
export interface FieldIssue {
  field: string;
  message: string;
}

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

/**
 * validatedAction behind a guard that runs first, before the form is even read: who is asking
 * (the staff and operator wrappers), which may end the request (a redirect) so that nothing runs.
 * What the guard hands back is given to the action.
 */
export function guardedAction<C, S extends z.ZodType, T>(
  guard: () => Promise<C>,
  schema: S,
  run: (context: C, input: z.output<S>, formData: FormData) => Promise<T>,
): (previous: unknown, formData: FormData) => Promise<ActionResult<T>> {
  return async (previous, formData) => {
    const context = await guard();
    return validatedAction(schema, (input: z.output<S>, data: FormData) => run(context, input, data))(previous, formData);
  };
}

/** Whether a validated action refused its form (the action did not run). */
export function isInvalid<T>(outcome: ActionResult<T>): outcome is { ok: false; invalid: FieldIssue[] } {
  return typeof outcome === "object" && outcome !== null && "invalid" in outcome;
}

/**
 * What every form state carries: how many times the form was sent, so the form tells a new answer
 * from the same one again (its focus and announcements follow each submission).
 */
export interface FormState {
  submission: number;
}

/** A form's state as an action's answer writes it: all of it but the count, which the shell adds. */
export type FormAnswer<S extends FormState> = S extends unknown ? Omit<S, "submission"> : never;

/** The submission being answered: the state the form had, and this submission's count. */
export interface Sent<S extends FormState> {
  previous: S;
  submission: number;
}

type Answer<S extends FormState> = FormAnswer<S> | Promise<FormAnswer<S>>;

/**
 * The one shell of a form action under `useActionState`: counts the submission, runs the validated
 * action, and answers with `invalid` (the refused fields, to say beside them with what was typed,
 * read from the form) or `valid` (the action's outcome). Either may redirect instead. Called with
 * the form's state first, `formAction<State>()(validated, answers)`, as TypeScript infers the
 * outcome's type but cannot be told the state's alone.
 */
export function formAction<S extends FormState>() {
  return function shell<T>(
    action: (previous: S, formData: FormData) => Promise<ActionResult<T>>,
    answer: {
      invalid: (issues: FieldIssue[], formData: FormData, sent: Sent<S>) => Answer<S>;
      valid: (outcome: T, formData: FormData, sent: Sent<S>) => Answer<S>;
    },
  ): (previous: S, formData: FormData) => Promise<S> {
    return async (previous, formData) => {
      const sent = { previous, submission: (previous?.submission ?? 0) + 1 };
      const outcome = await action(previous, formData);
      const state = isInvalid(outcome)
        ? await answer.invalid(outcome.invalid, formOf(formData), sent)
        : await answer.valid(outcome, formData, sent);
      return { ...state, submission: sent.submission } as S;
    };
  };
}

/**
 * A plain `<form action>` that ends in a redirect: the action answers with where to go; a refused
 * form (or any other answer) goes to `fallback`.
 */
export function redirectingAction<T>(
  action: (previous: undefined, formData: FormData) => Promise<ActionResult<T>>,
  fallback: string,
): (formData: FormData) => Promise<never> {
  return async (formData) => {
    const outcome = await action(undefined, formData);
    redirect(typeof outcome === "string" ? outcome : fallback);
  };
}

/** What was typed in a form's fields, each cut at its length: echoed back so that nothing typed is lost. */
export function typedValues<K extends string>(formData: unknown, limits: Record<K, number>): Record<K, string> {
  const form = formOf(formData);
  const values = {} as Record<K, string>;
  for (const name of Object.keys(limits) as K[]) values[name] = String(form.get(name) ?? "").slice(0, limits[name]);
  return values;
}

export function isForm(value: unknown): value is FormData {
  return value instanceof FormData;
}

/** What an action was called with, as a form: an empty one when it was not a form at all. */
export function formOf(value: unknown): FormData {
  return isForm(value) ? value : new FormData();
}
