import { HtmlLang } from "@/components/html-lang";
import type { Locale } from "@/lib/i18n/locales";
import type { Messages } from "@/lib/i18n/messages";
import { LanguageSwitcher } from "./language-switcher";
import { ProgressSteps } from "./progress-steps";

/** The checkout's banner: whose checkout it is, the language switcher, and where the customer is. */
export function CheckoutHeader({
  partnerName,
  locale,
  messages: m,
  returnTo,
  step,
}: {
  partnerName: string;
  locale: Locale;
  messages: Messages;
  /** This page's path, where the language switcher comes back to. */
  returnTo: string;
  /** The progress bar's current step, or none. */
  step?: number;
}) {
  return (
    <header className="border-b border-divider bg-surface">
      <HtmlLang lang={locale} />
      <div className="mx-auto flex max-w-2xl flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-2">
        <div className="min-w-0 py-1">
          <p className="font-bold text-brand">{partnerName}</p>
          <p className="text-sm text-muted">{m.common.checkoutKind}</p>
        </div>
        <LanguageSwitcher locale={locale} returnTo={returnTo} label={m.common.switchLanguage} />
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
