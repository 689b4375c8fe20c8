"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { LoginState } from "@/components/admin/form-states";
import { signIn } from "@/lib/identity/auth";
import { codePath, isReturnPath, requestIp, requestUserAgent, setStaffCookie, staffCookieName } from "@/lib/identity/staff";
import { getAppContext } from "@/lib/app-context";
import { formAction, validatedAction } from "@/lib/validated-action";
import { safeText } from "@/lib/validation/text";

/** The staff sign-in: the password step (lib/identity/auth.ts holds the rules). */

const signInSchema = z.object({
  email: z.string().check(safeText()).max(254).default(""),
  password: z.string().max(1000).default(""),
  next: z.string().check(safeText()).max(1000).optional(),
});

const signInValidated = validatedAction(signInSchema, async ({ email, password, next }) => {
  if (email.trim() === "" || password === "") return { ok: false as const, error: "missing" as const, email };
  const { db } = await getAppContext();
  // The browser's session before this sign-in (if any) ends with it: a new level, a new token.
  const previousToken = (await cookies()).get(await staffCookieName())?.value;
  const result = await signIn(db, { email, password, ip: await requestIp(), userAgent: await requestUserAgent(), previousToken });
  if (!result.ok) return { ok: false as const, error: result.reason, email };
  await setStaffCookie(result.token);
  // A password alone opens nothing: the second factor next (which knows whose area to land in).
  return { ok: true as const, next: codePath(isReturnPath(next) ? next : undefined) };
});

export const signInAction = formAction<LoginState>()(signInValidated, {
  invalid: () => ({ error: "invalid" }),
  valid: (outcome) => {
    if (!outcome.ok) return { error: outcome.error, email: outcome.email.slice(0, 254) };
    redirect(outcome.next);
  },
});
