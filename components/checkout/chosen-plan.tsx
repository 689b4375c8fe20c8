import type { ChosenPlan } from "@/lib/checkout/session/session-state";
import { differingInstallment, totalOwed } from "@/lib/financing/offers";
import { formatAmount, formatPercent } from "@/lib/i18n/format";
import type { Locale } from "@/lib/i18n/locales";
import type { Messages } from "@/lib/i18n/messages";

/**
 * The plan the customer chose, with its figures as offered then: on the status page, while the
 * provider decides and once it approved, so a customer coming back sees what they signed up for.
 */
export function ChosenPlanSummary({ plan, locale, messages }: { plan: ChosenPlan; locale: Locale; messages: Messages }) {
  const m = messages.offers;
  const money = (value: ChosenPlan["commonQuota"]) => formatAmount(value, locale);
  const differs = plan.differentialQuota.cents !== plan.commonQuota.cents;
  const differing = differingInstallment(plan);
  return (
    <section aria-labelledby="chosen-plan-heading" className="rounded-card bg-surface p-4 shadow-sm sm:p-5">
      <h2 id="chosen-plan-heading" className="text-sm font-semibold tracking-wide text-muted uppercase">
        {messages.status.yourPlan}
      </h2>
      <p className="mt-1 text-lg font-semibold">
        {m.installmentsPaid(
          plan.installments,
          money(plan.commonQuota),
          differing && { first: differing.first, amount: money(differing.amount) },
        )}
      </p>
      <p className="text-muted">{m.provider(plan.companyName)}</p>
      <dl className="mt-3 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1.5 tabular-nums">
        {differs ? (
          <>
            <dt>{plan.differentialIsFirst ? m.firstInstallment : m.lastInstallment}</dt>
            <dd className="text-right">{money(plan.differentialQuota)}</dd>
          </>
        ) : null}
        <dt>{m.totalFinanced}</dt>
        <dd className="text-right">{money(plan.totalFinanced)}</dd>
        <dt>{m.tin}</dt>
        <dd className="text-right">{formatPercent(plan.tin, locale)}</dd>
        <dt>{m.tae}</dt>
        <dd className="text-right">{formatPercent(plan.tae, locale)}</dd>
        <dt className="font-semibold">{m.totalOwed}</dt>
        <dd className="text-right font-semibold">{money(totalOwed(plan))}</dd>
      </dl>
    </section>
  );
}
