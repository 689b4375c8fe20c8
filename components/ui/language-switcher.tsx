import Link from "next/link";
import type { Locale } from "@/lib/i18n/locales";

const OTHER: Record<Locale, { locale: Locale; name: string }> = {
  es: { locale: "en", name: "English" },
  en: { locale: "es", name: "Español" },
};

const LOOK = "min-h-11 rounded-md px-3 text-sm font-semibold text-brand underline underline-offset-4 hover:bg-brand-soft";

/**
 * A plain form posting to `action` (the server action that sets the locale cookie and comes back
 * to `returnTo`, lib/i18n/actions' switchLocale): it works without JavaScript. It offers the other language, named in itself.
 *
 * In the embedded checkout a cookie may not be kept (a third-party frame), so the choice goes in
 * the URL instead: `switchHref` is this page in the other language, and the switcher a link to it,
 * which Next follows in the page (with JavaScript), as it follows the action's redirect: the page's
 * memory stays, so a form can keep what was typed across the switch
 * (components/checkout/kept-across-language-switch.ts). Not prefetched: few customers switch.
 * Both are marked `data-language-switch` for that.
 */
export function LanguageSwitcher({
  action,
  locale,
  returnTo,
  label,
  switchHref,
}: {
  action: (formData: FormData) => Promise<void>;
  locale: Locale;
  returnTo: string;
  label: string;
  switchHref?: string;
}) {
  const other = OTHER[locale];
  if (switchHref) {
    return (
      <Link href={switchHref} prefetch={false} data-language-switch="" className={`inline-flex items-center ${LOOK}`}>
        <span className="sr-only">{label} </span>
        <span lang={other.locale}>{other.name}</span>
      </Link>
    );
  }
  return (
    <form action={action} data-language-switch="">
      <input type="hidden" name="returnTo" value={returnTo} />
      <input type="hidden" name="locale" value={other.locale} />
      <button type="submit" className={LOOK}>
        <span className="sr-only">{label} </span>
        <span lang={other.locale}>{other.name}</span>
      </button>
    </form>
  );
}
