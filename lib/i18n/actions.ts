"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { localRedirectTarget, REDIRECT_TARGET_MAX_LENGTH } from "@/lib/http/redirect-target";
import { servedOverHttps } from "@/lib/security/headers/served-over-https";
import { validatedAction } from "@/lib/validated-action";
import { LOCALE_COOKIE, LOCALES } from "./locales";

/** A path on this site only (lib/http/redirect-target.ts): the switcher must never become an open redirect. */
const localPath = z
  .string()
  .max(REDIRECT_TARGET_MAX_LENGTH)
  .transform((value, ctx) => {
    const target = localRedirectTarget(value);
    if (target === undefined) ctx.addIssue({ code: "custom", message: "must be a path on this site", input: value });
    return target ?? "/";
  });

const switchLocaleSchema = z.object({ locale: z.enum(LOCALES), returnTo: localPath });

const switchLocaleValidated = validatedAction(switchLocaleSchema, async ({ locale, returnTo }) => {
  (await cookies()).set(LOCALE_COOKIE, locale, {
    path: "/",
    maxAge: 60 * 60 * 24 * 365,
    sameSite: "lax",
    httpOnly: true,
    secure: await servedOverHttps(),
  });
  return { ok: true as const, returnTo };
});

/**
 * The language switcher's form: remembers the choice in a cookie and goes back to the same page.
 * A plain form post, so it works without JavaScript.
 */
export async function switchLocale(formData: FormData): Promise<void> {
  const result = await switchLocaleValidated(undefined, formData);
  redirect(result.ok ? result.returnTo : "/");
}
