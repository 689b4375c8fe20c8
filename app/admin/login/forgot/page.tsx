import type { Metadata } from "next";
import { PlainFrame } from "@/components/admin/plain-frame";
import { Notice } from "@/components/ui/notice";
import { SubmitRow } from "@/components/ui/submit-button";
import { EmailField } from "@/components/ui/field";
import { TextLink } from "@/components/ui/text-link";
import { getAdminMessages } from "@/lib/i18n/admin-messages";
import { getLocale } from "@/lib/i18n/server";
import { getStaffMessages } from "@/lib/i18n/staff-messages";
import { forgotPasswordAction } from "./actions";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata(): Promise<Metadata> {
  return { title: getStaffMessages(await getLocale()).meta.forgot };
}

/**
 * Asking for a password reset link by e-mail. The answer is the same whatever the address (an
 * account or not), so this page tells no one who has an account.
 */
export default async function ForgotPasswordPage({ searchParams }: Props) {
  const query = await searchParams;
  const locale = await getLocale();
  const m = getAdminMessages(locale);
  const t = getStaffMessages(locale).forgot;
  const sent = query.sent;
  return (
    <PlainFrame m={m}>
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold">{t.title}</h1>
        <p className="text-muted">{t.intro}</p>
      </div>
      {sent === "accepted" ? (
        <Notice tone="success" live>
          {t.accepted}
        </Notice>
      ) : sent === "limited" ? (
        <Notice tone="warning" live>
          {t.limited}
        </Notice>
      ) : sent === "unavailable" ? (
        <Notice tone="warning" live>
          {t.unavailable}
        </Notice>
      ) : null}
      <section aria-label={t.title} className="rounded-card bg-surface p-5 shadow-sm">
        <form action={forgotPasswordAction} className="flex flex-col gap-4">
          <EmailField id="forgot-email" label={t.email} autoComplete="username" required />
          <SubmitRow pendingLabel={t.submitting}>{t.submit}</SubmitRow>
        </form>
      </section>
      <p>
        <TextLink href="/admin/login">{t.back}</TextLink>
      </p>
    </PlainFrame>
  );
}
