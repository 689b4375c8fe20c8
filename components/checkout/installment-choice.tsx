import Link from "next/link";
import type { InstallmentChoice } from "@/lib/financing/offers";
import { formatAmount } from "@/lib/i18n/format";
import type { Locale } from "@/lib/i18n/locales";
import type { Messages } from "@/lib/i18n/messages";

/**
 * The first choice on the offers page: how many installments, each count with its lowest monthly
 * installment ("6 × 205,75 €") and, under it, that plan's installment that differs ("primera:
 * 236,61 €"), so no count reads cheaper than what is paid. Plain links to the same page with `?n=`, so the choice works
 * without JavaScript; with it, Next swaps the plans in place (no reload, the scroll kept, the
 * history entry replaced so Back still leaves the page).
 */
export function InstallmentChoiceNav({
  choices,
  selected,
  hrefFor,
  locale,
  messages,
}: {
  choices: readonly InstallmentChoice[];
  selected: number;
  hrefFor: (installments: number) => string;
  locale: Locale;
  messages: Messages;
}) {
  const m = messages.offers;
  return (
    <nav aria-labelledby="counts-heading" className="flex flex-col gap-2">
      <h2 id="counts-heading" className="text-xl font-bold">
        {m.countsHeading}
      </h2>
      <p className="text-sm text-muted">{m.countsHint}</p>
      <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3">
        {choices.map(({ installments, lowestMonthly, differing }) => {
          const current = installments === selected;
          return (
            <li key={installments} className="flex">
              <Link
                href={hrefFor(installments)}
                replace
                scroll={false}
                prefetch={false}
                aria-current={current ? "true" : undefined}
                className={`flex min-h-11 w-full flex-col items-center justify-center rounded-lg border-2 px-2 py-0.5 text-center leading-tight font-semibold no-underline ${
                  current ? "border-brand bg-brand text-brand-contrast" : "border-line bg-surface text-ink hover:border-brand"
                }`}
              >
                <span className="whitespace-nowrap">{m.countOption(installments, formatAmount(lowestMonthly, locale))}</span>
                {differing ? (
                  <>
                    {/* A pause between the two parts for screen readers, which join spans into one name. */}
                    <span className="sr-only">, </span>
                    <span className="text-xs font-normal whitespace-nowrap">
                      {m.countDiffering(differing.first, formatAmount(differing.amount, locale))}
                    </span>
                  </>
                ) : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
