import { HomeFrame } from "./home-frame";
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
    <HomeFrame name={m.meta.appName} locale={locale} switchLocale={switchLocale} switchLabel={m.common.switchLanguage}>
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
    </HomeFrame>
  );
}
