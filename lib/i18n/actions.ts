"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { servedOverHttps } from "@/lib/security/served-over-https";
import { validatedAction } from "@/lib/validated-action";
import { safeText } from "@/lib/validation/text";
import { LOCALE_COOKIE, LOCALES } from "./locales";

const ORIGIN_PROBE = "http://origin.invalid";

/** A path on this site only: the switcher must never become an open redirect. */
const localPath = z
  .string()
  .check(safeText())
  .max(2000)
  .refine((value) => {
    if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return false;
    try {
      return new URL(value, ORIGIN_PROBE).origin === ORIGIN_PROBE;
    } catch {
      return false;
    }
  }, "must be a path on this site");

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
