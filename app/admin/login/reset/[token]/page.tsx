import type { Metadata } from "next";
import { PlainFrame } from "@/components/admin/plain-frame";
import { SecurityForm } from "@/components/admin/security/security-form";
import { Notice } from "@/components/ui/notice";
import { TextLink } from "@/components/ui/text-link";
import { isResetLinkLive } from "@/lib/identity/password-reset";
import { getAppContext } from "@/lib/app-context";
import { getAdminMessages } from "@/lib/i18n/admin-messages";
import { getLocale } from "@/lib/i18n/server";
import { getStaffMessages } from "@/lib/i18n/staff-messages";
import { resetPasswordAction } from "./actions";

type Props = { params: Promise<{ token: string }> };

export async function generateMetadata(): Promise<Metadata> {
  return { title: getStaffMessages(await getLocale()).meta.reset, referrer: "no-referrer" };
}

/**
 * A password reset link's page. Opening it uses nothing (mail scanners open links too): saving a
 * new password does, once.
 */
export default async function ResetPasswordPage({ params }: Props) {
  const { token } = await params;
  const { db } = await getAppContext();
  const live = await isResetLinkLive(db, token);
  const locale = await getLocale();
  const m = getAdminMessages(locale);
  const t = getStaffMessages(locale).reset;
  // Only a live token (a plain base64url string) ever goes into the form's permalink.
  const path = live ? `/admin/login/reset/${token}` : "/admin/login/forgot";
  return (
    <PlainFrame m={m}>
      <h1 className="text-3xl font-bold">{t.title}</h1>
      {live ? (
        <section aria-label={t.title} className="flex flex-col gap-4 rounded-card bg-surface p-5 shadow-sm">
          <p>{t.intro}</p>
          <SecurityForm
            action={resetPasswordAction}
            page={path}
            hidden={{ token }}
            fields={[
              { name: "password", label: t.password, hint: t.passwordHint, type: "password", autoComplete: "new-password" },
              { name: "confirm", label: t.confirm, type: "password", autoComplete: "new-password" },
            ]}
            text={t.form}
          />
        </section>
      ) : (
        <>
          <Notice tone="warning">{t.invalid}</Notice>
          <p>
            <TextLink href="/admin/login/forgot">{getStaffMessages(locale).forgot.title}</TextLink>
          </p>
        </>
      )}
    </PlainFrame>
  );
}
