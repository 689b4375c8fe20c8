import type { Metadata } from "next";
import { AdminPage } from "@/app/admin/admin-page";
import { Button } from "@/components/ui/button";
import { SelectField, TextField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { OfferArticle } from "@/components/checkout/offer-card";
import { RepresentativeExample } from "@/components/checkout/representative-example";
import { groupAgencies } from "@/lib/identity/agencies";
import { apiProblem } from "@/lib/financing/api-problem";
import { parseChargeCents } from "@/lib/backoffice/refunds/review";
import { requireStaff } from "@/lib/identity/staff";
import { countryName, countryOptions, isCountryCode } from "@/lib/checkout/session/countries";
import { representativeExample, sortOffers } from "@/lib/financing/offers";
import { isFinancingApiError } from "@/lib/financing/errors";
import type { FinancialOffer } from "@/lib/financing/types";
import { getAdminMessages, type AdminMessages } from "@/lib/i18n/admin-messages";
import { formatAmount } from "@/lib/i18n/format";
import type { Locale } from "@/lib/i18n/locales";
import type { Messages } from "@/lib/i18n/messages";
import { getLocale, getMessages } from "@/lib/i18n/server";
import { getPaymentLinkMessages } from "@/lib/i18n/payment-link-messages";
import { LinkButton } from "@/components/ui/link-button";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata(): Promise<Metadata> {
  return { title: getAdminMessages(await getLocale()).meta.simulator };
}

type Outcome =
  | { kind: "form" }
  | { kind: "invalid"; amount: boolean; country: boolean }
  | { kind: "offers"; offers: FinancialOffer[]; cents: number; country: string }
  | { kind: "none"; cents: number; country: string }
  | { kind: "validation" }
  | { kind: "no_companies" }
  | { kind: "problem"; problem: ReturnType<typeof apiProblem> };

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Quoting financing over the phone: `GET /financing/simulate/{amount}?countryCode=…`, shown as the
 * customer sees the plans, with the representative example. A GET form: the quote is a read, and
 * its URL can be shared.
 */
export default async function SimulatorPage({ searchParams }: Props) {
  const query = await searchParams;
  const amountText = single(query.amount)?.trim();
  const country = (single(query.country) ?? "ESP").trim().toUpperCase();
  const path =
    amountText === undefined ? "/admin/simulator" : `/admin/simulator?${new URLSearchParams({ amount: amountText, country }).toString()}`;
  const staff = await requireStaff(path);
  const locale = await getLocale();
  const m = getAdminMessages(locale);
  const customer = getMessages(locale);

  let outcome: Outcome = { kind: "form" };
  if (amountText !== undefined) {
    const cents = parseChargeCents(amountText);
    const countryOk = isCountryCode(country);
    if (cents === undefined || amountText === "" || !countryOk) {
      outcome = { kind: "invalid", amount: cents === undefined || amountText === "", country: !countryOk };
    } else {
      try {
        // An amount of 0 goes on: the client refuses it before sending, as the API would (VALIDATION_ERROR).
        const result = await staff.client.simulate({ cents, currency: "EUR" }, { countryCode: country });
        outcome =
          result.offers.length === 0
            ? { kind: "none", cents, country }
            : { kind: "offers", offers: sortOffers(result.offers), cents, country };
      } catch (error) {
        if (isFinancingApiError(error) && (error.kind === "invalid_request" || error.is("VALIDATION_ERROR")))
          outcome = { kind: "validation" };
        else if (isFinancingApiError(error, "NO_FINANCIAL_COMPANIES_CONFIGURED")) outcome = { kind: "no_companies" };
        else outcome = { kind: "problem", problem: apiProblem(error, "a simulation") };
      }
    }
  }

  const agencies = outcome.kind === "no_companies" ? await groupAgencies(staff) : undefined;
  const agencyName =
    agencies?.ok && agencies.current ? m.common.agencyOption(agencies.current.tradeName, agencies.current.id) : m.simulator.thisAgency;
  const amountError = outcome.kind === "invalid" && outcome.amount ? m.simulator.amountInvalid : undefined;
  const countryError = outcome.kind === "invalid" && outcome.country ? m.simulator.countryInvalid : undefined;
  const countries = countryOptions(locale);

  return (
    <AdminPage staff={staff} locale={locale} m={m} path={path} section="simulator">
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold">{m.simulator.title}</h1>
        <p className="text-muted">{m.simulator.intro}</p>
      </div>

      <form
        method="get"
        action="/admin/simulator"
        noValidate
        className="flex flex-col gap-4 rounded-card bg-surface p-4 shadow-sm sm:flex-row sm:flex-wrap sm:items-end sm:p-5"
      >
        <TextField
          id="sim-amount"
          name="amount"
          label={m.simulator.amount}
          hint={m.simulator.amountHint}
          error={amountError}
          errorPrefix={m.common.errorPrefix}
          className="sm:w-56"
          inputMode="decimal"
          autoComplete="off"
          defaultValue={amountText ?? ""}
        />
        <SelectField
          id="sim-country"
          name="country"
          label={m.simulator.country}
          error={countryError}
          errorPrefix={m.common.errorPrefix}
          className="sm:w-72"
          defaultValue={isCountryCode(country) ? country : "ESP"}
          options={countries.map((option) => ({ value: option.code, label: option.name }))}
        />
        <div>
          <Button>{m.simulator.submit}</Button>
        </div>
      </form>

      {outcome.kind === "validation" ? <Notice tone="error">{m.simulator.validationError}</Notice> : null}
      {outcome.kind === "no_companies" ? (
        <Notice tone="warning" title={m.simulator.noCompaniesTitle}>
          {m.simulator.noCompanies(agencyName)}
        </Notice>
      ) : null}
      {outcome.kind === "problem" ? (
        <Notice tone="error">
          {outcome.problem === "auth"
            ? m.common.apiAuth
            : outcome.problem === "forbidden"
              ? m.common.apiForbidden
              : m.common.apiUnavailable}
        </Notice>
      ) : null}
      {outcome.kind === "none" ? <Notice tone="info">{m.simulator.none}</Notice> : null}
      {outcome.kind === "offers" ? <SimulationResults result={outcome} locale={locale} m={m} customer={customer} /> : null}
    </AdminPage>
  );
}

function SimulationResults({
  result,
  locale,
  m,
  customer,
}: {
  result: Extract<Outcome, { kind: "offers" }>;
  locale: Locale;
  m: AdminMessages;
  customer: Messages;
}) {
  const cash = { cents: result.cents, currency: "EUR" };
  const example = representativeExample(result.offers, cash);
  const groups = new Map<number, FinancialOffer[]>();
  for (const offer of result.offers) groups.set(offer.installments, [...(groups.get(offer.installments) ?? []), offer]);
  return (
    <section aria-labelledby="results-heading" className="flex flex-col gap-5">
      <h2 id="results-heading" className="text-2xl font-bold">
        {m.simulator.resultsHeading(formatAmount(cash, locale), countryName(result.country, locale))}
      </h2>
      <p className="rounded-md border-2 border-warning bg-warning-soft px-3 py-2 font-bold">{customer.offers.warning}</p>
      {/* The quote, one step from a payment link for the customer on the phone. */}
      <div>
        <LinkButton href={`/admin/payment-links/new?amount=${(result.cents / 100).toFixed(2)}`}>
          {getPaymentLinkMessages(locale).fromSimulator(formatAmount(cash, locale))}
        </LinkButton>
      </div>
      {[...groups.entries()].map(([installments, offers]) => (
        <section key={installments} aria-labelledby={`group-${installments}`} className="flex flex-col gap-3">
          <h3 id={`group-${installments}`} className="text-xl font-bold">
            {customer.offers.groupHeading(installments)}
          </h3>
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {offers.map((offer) => (
              <li key={offer.id}>
                <OfferArticle offer={offer} locale={locale} messages={customer} compact />
              </li>
            ))}
          </ul>
        </section>
      ))}
      {example ? (
        <RepresentativeExample
          example={example}
          offer={result.offers.find((offer) => offer.id === example.offerId)}
          locale={locale}
          messages={customer}
        />
      ) : null}
    </section>
  );
}
