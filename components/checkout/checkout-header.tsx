import { HtmlLang } from "@/components/html-lang";
import { embedHref, type EmbedContext } from "@/lib/embed/context";
import type { Locale } from "@/lib/i18n/locales";
import type { Messages } from "@/lib/i18n/messages";
import { LanguageSwitcher } from "@/components/ui/language-switcher";
import { switchLocale } from "@/lib/i18n/actions";
import { ProgressSteps } from "./progress-steps";

/** The checkout's banner: whose checkout it is, the language switcher, and where the customer is. */
export function CheckoutHeader({
  partnerName,
  logoUrl,
  locale,
  messages: m,
  returnTo,
  step,
  embed,
}: {
  partnerName: string;
  /** The partner's logo (its theme's), shown beside its name. */
  logoUrl?: string;
  locale: Locale;
  messages: Messages;
  /** This page's path, where the language switcher comes back to. */
  returnTo: string;
  /** The progress bar's current step, or none. */
  step?: number;
  /** Embedded in the partner's page: the language choice travels in the URL. */
  embed?: EmbedContext;
}) {
  const other: Locale = locale === "es" ? "en" : "es";
  return (
    <header className="border-b border-divider bg-surface">
      <HtmlLang lang={locale} />
      <div className="mx-auto flex max-w-2xl flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-2">
        <div className="flex min-w-0 items-center gap-3 py-1">
          {logoUrl ? (
            // The name is written beside it: the logo adds nothing a screen reader needs.
            // eslint-disable-next-line @next/next/no-img-element -- a partner's logo from anywhere over https; no optimiser in between
            <img src={logoUrl} alt="" className="h-10 w-auto max-w-32 shrink-0 object-contain" />
          ) : null}
          <div className="min-w-0">
            <p className="font-bold text-brand">{partnerName}</p>
            <p className="text-sm text-muted">{m.common.checkoutKind}</p>
          </div>
        </div>
        <LanguageSwitcher
          action={switchLocale}
          locale={locale}
          returnTo={returnTo}
          label={m.common.switchLanguage}
          switchHref={embed ? embedHref(returnTo, { ...embed, locale: other }) : undefined}
        />
      </div>
      {step ? (
        <div className="mx-auto max-w-2xl px-4 pb-3">
          <ProgressSteps
            current={step}
            labels={m.common.steps}
            label={m.common.stepsLabel}
            title={step <= 3 ? m.common.stepOf(step, 3) : m.common.stepsLabel}
            doneLabel={m.common.stepDone}
          />
        </div>
      ) : null}
    </header>
  );
}
