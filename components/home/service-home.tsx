import { LanguageSwitcher } from "@/components/ui/language-switcher";
import { TextLink } from "@/components/ui/text-link";
import type { Locale } from "@/lib/i18n/locales";
import type { Messages } from "@/lib/i18n/messages";

/**
 * The home page of a real deployment (the production partner API): what the service is, and where
 * each visitor goes. Customers only ever arrive through their agency's link to a checkout session,
 * so nothing here starts a payment; staff sign in at /admin. No sample trip, no sandbox triggers.
 */
export function ServiceHome({
  locale,
  m,
  switchLocale,
}: {
  locale: Locale;
  m: Messages;
  switchLocale: (formData: FormData) => Promise<void>;
}) {
  return (
    <>
      <header className="border-b border-divider bg-surface">
        <div className="mx-auto flex max-w-2xl flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-2">
          <p className="py-2 font-bold text-brand">{m.meta.appName}</p>
          <LanguageSwitcher action={switchLocale} locale={locale} returnTo="/" label={m.common.switchLanguage} />
        </div>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-8 sm:py-12">
        <div className="flex flex-col gap-3">
          <h1 className="text-3xl font-bold sm:text-4xl">{m.home.title}</h1>
          <p className="text-lg text-muted">{m.home.intro}</p>
        </div>
        <section aria-labelledby="customer-heading" className="flex flex-col gap-2 rounded-card bg-surface p-5 shadow-sm">
          <h2 id="customer-heading" className="text-xl font-bold">
            {m.home.customerHeading}
          </h2>
          <p>{m.home.customerBody}</p>
        </section>
        <section aria-labelledby="staff-heading" className="flex flex-col gap-2 rounded-card bg-surface p-5 shadow-sm">
          <h2 id="staff-heading" className="text-xl font-bold">
            {m.home.staffHeading}
          </h2>
          <p>
            <TextLink href="/admin">{m.home.staffLink}</TextLink>
          </p>
        </section>
      </main>
    </>
  );
}
