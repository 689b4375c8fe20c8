import { Button } from "@/components/ui/button";
import { LanguageSwitcher } from "@/components/ui/language-switcher";
import { switchLocale } from "@/lib/i18n/actions";
import type { AdminMessages } from "@/lib/i18n/admin-messages";
import type { Locale } from "@/lib/i18n/locales";

/** The back-office frames' top right (signed in or half-way): the language, and signing out. */
export function FrameActions({
  m,
  locale,
  path,
  signOut,
}: {
  m: AdminMessages;
  locale: Locale;
  /** This page's path and query: where the language switch comes back to. */
  path: string;
  signOut: (formData: FormData) => Promise<void>;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <LanguageSwitcher action={switchLocale} locale={locale} returnTo={path} label={m.common.switchLanguage} />
      <form action={signOut}>
        <Button variant="secondary" size="sm">
          {m.common.signOut}
        </Button>
      </form>
    </div>
  );
}
