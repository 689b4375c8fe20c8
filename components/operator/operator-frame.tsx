import Link from "next/link";
import type { ReactNode } from "react";
import { LanguageSwitcher } from "@/components/ui/language-switcher";
import { switchLocale } from "@/lib/i18n/actions";
import type { Locale } from "@/lib/i18n/locales";
import { fill, type PartnerConsoleMessages } from "@/lib/i18n/partner-console-messages";
import type { OperatorContext } from "@/lib/operator/session";

/**
 * The platform operator console's pages: whose session it is, its sections, the language. Plain
 * links and forms. (The identity work brings the console's sign-in and sign-out; its frame and this
 * one become one at the merge.)
 */
export function OperatorFrame({
  operator,
  locale,
  m,
  path,
  children,
}: {
  operator: OperatorContext;
  locale: Locale;
  m: PartnerConsoleMessages;
  /** This page's path: where the language switch comes back to. */
  path: string;
  children: ReactNode;
}) {
  return (
    <>
      <header className="border-b border-divider bg-surface">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-2">
          <div className="min-w-0 py-1">
            <p className="font-bold text-brand">{m.frame.console}</p>
            <p className="text-sm text-muted">{fill(m.frame.signedInAs, { name: operator.user.name })}</p>
          </div>
          <LanguageSwitcher action={switchLocale} locale={locale} returnTo={path} label={m.frame.switchLanguage} />
        </div>
        <nav aria-label={m.frame.navLabel} className="mx-auto max-w-6xl px-4 pb-3">
          <ul className="flex flex-wrap gap-1">
            <li>
              <Link
                href="/operator/partners"
                aria-current={path.startsWith("/operator/partners") ? "page" : undefined}
                className="inline-flex min-h-11 items-center rounded-md px-3 font-semibold text-brand underline-offset-4 hover:bg-brand-soft aria-[current=page]:bg-brand aria-[current=page]:text-brand-contrast"
              >
                {m.frame.partners}
              </Link>
            </li>
          </ul>
        </nav>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-6 sm:py-8">
        {children}
      </main>
    </>
  );
}
