import type { ReactNode } from "react";
import { LanguageSwitcher } from "@/components/ui/language-switcher";
import type { Locale } from "@/lib/i18n/locales";

/**
 * The home page's frame, the demo shop's and a real deployment's alike: the site's name and the
 * language switch in the header, then the page's own content in `main` (the skip link's target).
 */
export function HomeFrame({
  name,
  locale,
  switchLocale,
  switchLabel,
  children,
}: {
  name: string;
  locale: Locale;
  switchLocale: (formData: FormData) => Promise<void>;
  switchLabel: string;
  children: ReactNode;
}) {
  return (
    <>
      <header className="border-b border-divider bg-surface">
        <div className="mx-auto flex max-w-2xl flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-2">
          <p className="py-2 font-bold text-brand">{name}</p>
          <LanguageSwitcher action={switchLocale} locale={locale} returnTo="/" label={switchLabel} />
        </div>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-8 sm:py-12">
        {children}
      </main>
    </>
  );
}
