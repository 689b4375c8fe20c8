import type { Metadata } from "next";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/admin/login-form";
import { LanguageSwitcher } from "@/components/ui/language-switcher";
import { switchLocale } from "@/lib/i18n/actions";
import { Notice } from "@/components/ui/notice";
import {
  anyStaffSessionForAction,
  codePath,
  ENROL_PATH,
  isOperatorPath,
  isReturnPath,
  landingPath,
  staffCookieName,
} from "@/lib/identity/staff";
import { getAdminMessages } from "@/lib/i18n/admin-messages";
import { getLocale } from "@/lib/i18n/server";
import { getStaffMessages } from "@/lib/i18n/staff-messages";
import { TextLink } from "@/components/ui/text-link";
import { signInAction } from "./actions";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const m = getAdminMessages(await getLocale());
  return { title: isOperatorPath((await searchParams).next) ? m.login.operatorTitle : m.meta.login };
}

/**
 * The staff sign-in, which the platform's operators share: titled for them on the way to their
 * console (`?next=/operator…`, where the console sends them). Someone already signed in goes
 * straight on.
 */
export default async function LoginPage({ searchParams }: Props) {
  const query = await searchParams;
  const next = isReturnPath(query.next) ? query.next : undefined;
  const staff = await anyStaffSessionForAction();
  if (staff) redirect(staff.stage === "full" ? landingPath(staff.user.role, next) : staff.stage === "code" ? codePath(next) : ENROL_PATH);
  // A cookie that no longer opens a session: it expired, went idle, or was signed out elsewhere.
  const codesEnded = query.codes === "ended";
  const passwordEnded = query.password === "ended";
  const expired =
    Boolean((await cookies()).get(await staffCookieName())?.value) &&
    query.signedOut !== "1" &&
    query.reset !== "done" &&
    !codesEnded &&
    !passwordEnded;

  const locale = await getLocale();
  const m = getAdminMessages(locale);
  const s = getStaffMessages(locale);
  const returnTo = next ? `/admin/login?next=${encodeURIComponent(next)}` : "/admin/login";
  const operator = isOperatorPath(next);
  const title = operator ? m.login.operatorTitle : m.login.title;
  return (
    <>
      <header className="border-b border-divider bg-surface">
        <div className="mx-auto flex max-w-md flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-2">
          <p className="py-2 font-bold text-brand">{m.common.backOffice}</p>
          <LanguageSwitcher action={switchLocale} locale={locale} returnTo={returnTo} label={m.common.switchLanguage} />
        </div>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto flex max-w-md flex-col gap-6 px-4 py-8 sm:py-12">
        <div className="flex flex-col gap-2">
          <h1 className="text-3xl font-bold">{title}</h1>
          <p className="text-muted">{operator ? m.login.operatorIntro : m.login.intro}</p>
        </div>
        {query.signedOut === "1" ? <Notice tone="success">{m.login.signedOut}</Notice> : null}
        {expired ? <Notice tone="info">{m.login.expired}</Notice> : null}
        {codesEnded ? <Notice tone="warning">{m.secondFactor.ended}</Notice> : null}
        {passwordEnded ? <Notice tone="warning">{m.login.passwordEnded}</Notice> : null}
        {query.reset === "done" ? <Notice tone="success">{s.reset.done}</Notice> : null}
        <section aria-label={title} className="rounded-card bg-surface p-5 shadow-sm">
          <LoginForm action={signInAction} text={m.loginForm} next={next} />
        </section>
        <p>
          <TextLink href="/admin/login/forgot">{s.forgot.link}</TextLink>
        </p>
      </main>
    </>
  );
}
