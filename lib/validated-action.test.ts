import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formAction, guardedAction, redirectingAction, typedValues, validatedAction, type FormState } from "./validated-action";

/** The one form-action shell: validation first, the submission counted, what was typed echoed back. */

interface NameState extends FormState {
  name?: string;
  error?: string;
  saved?: boolean;
}

function form(entries: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(entries)) data.set(key, value);
  return data;
}

const saveName = validatedAction(z.object({ name: z.string().min(1).max(5) }), async ({ name }) =>
  name === "taken" ? { error: "taken" } : { saved: true },
);

const nameAction = formAction<NameState>()(saveName, {
  invalid: (issues, formData) => ({ error: issues.map((issue) => issue.field).join(","), ...typedValues(formData, { name: 8 }) }),
  valid: (outcome, formData) => ("error" in outcome ? { error: outcome.error, ...typedValues(formData, { name: 8 }) } : outcome),
});

describe("formAction", () => {
  it("counts each submission, on the previous state's count", async () => {
    expect(await nameAction({ submission: 0 }, form({ name: "Ana" }))).toEqual({ submission: 1, saved: true });
    expect(await nameAction({ submission: 4 }, form({ name: "Ana" }))).toEqual({ submission: 5, saved: true });
  });

  it("answers a refused form with its fields and what was typed, without running the action", async () => {
    expect(await nameAction({ submission: 1 }, form({ name: "far too long a name" }))).toEqual({
      submission: 2,
      error: "name",
      name: "far too ",
    });
  });

  it("answers the action's own refusal through `valid`", async () => {
    expect(await nameAction({ submission: 0 }, form({ name: "taken" }))).toEqual({ submission: 1, error: "taken", name: "taken" });
  });

  it("refuses arguments that are not a form (a hand-made post) as invalid", async () => {
    const notAForm = "hello" as unknown as FormData;
    expect(await nameAction({ submission: 0 }, notAForm)).toEqual({ submission: 1, error: "(form)", name: "" });
  });
});

describe("guardedAction", () => {
  it("runs the guard before reading the form, and hands its context to the action", async () => {
    const calls: string[] = [];
    const action = guardedAction(
      async () => {
        calls.push("guard");
        return { who: "staff_1" };
      },
      z.object({ n: z.coerce.number() }),
      async (context, input) => `${context.who}:${input.n}`,
    );
    expect(await action(undefined, form({ n: "3" }))).toBe("staff_1:3");
    expect(await action(undefined, form({ n: "x" }))).toMatchObject({ ok: false, invalid: [{ field: "n" }] });
    expect(calls).toEqual(["guard", "guard"]);
  });

  it("lets a refusing guard end the request before anything runs", async () => {
    let ran = false;
    const action = guardedAction(
      () => Promise.reject(new Error("no session")),
      z.object({}),
      async () => {
        ran = true;
      },
    );
    await expect(action(undefined, form({}))).rejects.toThrow("no session");
    expect(ran).toBe(false);
  });
});

describe("redirectingAction", () => {
  async function target(promise: Promise<unknown>): Promise<string> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e as { digest?: string },
    );
    // Next's redirect is an error whose digest carries the target: NEXT_REDIRECT;replace;/path;307;
    return error?.digest?.split(";")[2] ?? "no redirect";
  }

  const go = redirectingAction(
    validatedAction(z.object({ to: z.enum(["a", "b"]) }), async ({ to }) => `/${to}`),
    "/fallback",
  );

  it("goes where the action says, or to the fallback on a refused form", async () => {
    expect(await target(go(form({ to: "b" })))).toBe("/b");
    expect(await target(go(form({ to: "c" })))).toBe("/fallback");
  });
});
