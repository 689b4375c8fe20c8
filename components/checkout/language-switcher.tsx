import { switchLocale } from "@/lib/i18n/actions";
import type { Locale } from "@/lib/i18n/locales";

const OTHER: Record<Locale, { locale: Locale; name: string }> = {
  es: { locale: "en", name: "English" },
  en: { locale: "es", name: "Español" },
};

/**
 * A plain form posting to a server action that sets the locale cookie and comes back to
 * `returnTo`: it works without JavaScript. It offers the other language, named in itself.
 */
export function LanguageSwitcher({ locale, returnTo, label }: { locale: Locale; returnTo: string; label: string }) {
  const other = OTHER[locale];
  return (
    <form action={switchLocale}>
      <input type="hidden" name="returnTo" value={returnTo} />
      <input type="hidden" name="locale" value={other.locale} />
      <button
        type="submit"
        className="min-h-11 rounded-md px-3 text-sm font-semibold text-brand underline underline-offset-4 hover:bg-brand-soft"
      >
        <span className="sr-only">{label} </span>
        <span lang={other.locale}>{other.name}</span>
      </button>
    </form>
  );
}
