"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { formatDateTime } from "@/lib/backoffice/common/format";
import { requestPasswordReset } from "@/lib/identity/password-reset";
import { requestIp } from "@/lib/identity/staff";
import { getAppContext } from "@/lib/app-context";
import { getEnv } from "@/lib/config/env";
import { getLocale } from "@/lib/i18n/server";
import { getMailer } from "@/lib/mail/mailer";
import { validatedAction } from "@/lib/validated-action";
import { safeText } from "@/lib/validation/text";

/** "Forgot your password?": the e-mailed link (lib/identity/password-reset.ts holds the rules). */

const forgotValidated = validatedAction(z.object({ email: z.string().check(safeText()).max(254).default("") }), async ({ email }) => {
  if (email.trim() === "") return "missing" as const;
  const { db } = await getAppContext();
  const env = getEnv();
  const { outcome, delivery } = await requestPasswordReset(
    db,
    { email, ip: await requestIp(), locale: await getLocale() },
    { mailer: getMailer(), appUrl: env.APP_URL, platformName: new URL(env.APP_URL).host, formatExpiry: formatDateTime },
  );
  // The answer waits for nothing that depends on the address (the lookup, the link, the mail server): how long it takes must not tell whether an account exists.
  void delivery;
  return outcome;
});

export async function forgotPasswordAction(formData: FormData): Promise<void> {
  const outcome = await forgotValidated(undefined, formData);
  redirect(`/admin/login/forgot?sent=${typeof outcome === "string" ? outcome : "missing"}`);
}
