import { startDemoCheckout } from "@/app/actions/demo";
import { sampleTrip, SAMPLE_TRIP_PRICE_CENTS } from "@/app/actions/demo-trip";
import { ServiceHome } from "@/components/home/service-home";
import { HomeFrame } from "@/components/home/home-frame";
import { switchLocale } from "@/lib/i18n/actions";
import { Notice } from "@/components/ui/notice";
import { SubmitButton } from "@/components/ui/submit-button";
import { getAppContext } from "@/lib/app-context";
import { DEMO_PARTNER_ID } from "@/lib/demo/seed";
import { getEnv } from "@/lib/config/env";
import { cachedPartnerById } from "@/lib/partners/cache";
import { formatAmount, formatDate } from "@/lib/i18n/format";
import type { Messages } from "@/lib/i18n/messages";
import { getLocale, getMessages } from "@/lib/i18n/server";

/**
 * On the sandbox, the demo shop (docs/contributors/architecture.md, "The checkout as data moves"): a travel agency's page with one sample trip.
 * "Pay in installments" opens a checkout session for it, so `npm start` shows the whole flow. With
 * the production partner API, the service's own home (components/home/service-home.tsx).
 */

const TRIGGERS = ["refuse_offer", "error_offer", "refuse_all", "refuse_first", "error", "decline", "not_eligible"] as const;

type StateKey = keyof Messages["status"]["states"];

/** The outcome the checkout put in the return URL, if it is one we know. */
function returnedOutcome(m: Messages, outcome: unknown): { state: StateKey; title: string } | undefined {
  const states = m.status.states;
  const known = (value: string): value is StateKey => Object.hasOwn(states, value);
  return typeof outcome === "string" && known(outcome) ? { state: outcome, title: states[outcome].title } : undefined;
}

export default async function HomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const locale = await getLocale();
  const m = getMessages(locale);
  // The demo exists on the sandbox only (app/actions/demo.ts refuses it with the production API): a
  // real deployment's home says what the service is, with no sample trip and no sandbox triggers.
  if (getEnv().financing.environment !== "sandbox") return <ServiceHome locale={locale} m={m} switchLocale={switchLocale} />;
  const trip = sampleTrip(locale);
  const ctx = await getAppContext();
  const demoAvailable = Boolean(await cachedPartnerById(ctx.db, DEMO_PARTNER_ID));

  // The customer coming back from the checkout. The outcome in the query is only a hint, fine to
  // show in a demo: a real partner re-checks it with GET /api/checkout-sessions/{id} before it
  // confirms or releases the booking.
  const returned = typeof query.checkoutSession === "string" ? returnedOutcome(m, query.outcome) : undefined;
  const [flight] = trip.flights;
  const [hotel] = trip.hotels;

  return (
    <HomeFrame name={m.shop.shopName} locale={locale} switchLocale={switchLocale} switchLabel={m.common.switchLanguage}>
      <div className="flex flex-col gap-3">
        <h1 className="text-3xl font-bold sm:text-4xl">{m.shop.title}</h1>
        {query.demo === "busy" ? <Notice tone="warning">{m.shop.busy}</Notice> : null}
        {returned ? (
          <Notice tone={returned.state === "confirmed" || returned.state === "approved" ? "success" : "info"} title={m.shop.outcomeHeading}>
            <p className="font-semibold">{returned.title}</p>
            <p className="mt-1 text-sm">{m.shop.outcomeNote}</p>
          </Notice>
        ) : null}
        <p className="text-lg text-muted">{m.shop.intro}</p>
      </div>

      <section aria-labelledby="trip-heading" className="overflow-hidden rounded-card bg-surface shadow-sm">
        <div className="bg-brand px-5 py-4 text-brand-contrast">
          <p className="text-sm font-semibold tracking-wide uppercase">{m.shop.tripHeading}</p>
          <h2 id="trip-heading" className="text-2xl font-bold">
            {trip.packageName}
          </h2>
        </div>
        <div className="flex flex-col gap-4 p-5">
          <ul className="flex flex-col gap-2">
            {flight ? (
              <li>
                {m.shop.flight(flight.origin, flight.destination)}
                <br />
                <span className="text-sm text-muted">
                  {m.shop.dates(formatDate(flight.departureDate, locale), formatDate(flight.returnDate, locale))}
                </span>
              </li>
            ) : null}
            {hotel ? <li>{m.shop.hotel(hotel.name, trip.nights)}</li> : null}
            <li>{m.shop.travellers(trip.travellers)}</li>
          </ul>
          <p className="flex items-baseline justify-between gap-4 border-t border-divider pt-4">
            <span className="font-semibold">{m.shop.total}</span>
            <span className="text-2xl font-bold">{formatAmount({ cents: SAMPLE_TRIP_PRICE_CENTS, currency: "EUR" }, locale)}</span>
          </p>
          {demoAvailable ? (
            <form action={startDemoCheckout} className="flex flex-col gap-2">
              <SubmitButton pendingLabel={m.common.sending}>{m.shop.payButton}</SubmitButton>
              <p className="text-sm text-muted">{m.shop.payHint}</p>
            </form>
          ) : (
            <Notice tone="warning">{m.shop.unavailable}</Notice>
          )}
        </div>
      </section>

      <details className="rounded-card bg-surface p-5 shadow-sm">
        <summary className="cursor-pointer font-semibold">{m.shop.triggersHeading}</summary>
        <p className="mt-3">{m.shop.triggersIntro}</p>
        <ul className="mt-2 space-y-1">
          {TRIGGERS.map((tag) => (
            <li key={tag}>
              <code className="font-semibold">+{tag}</code>: {m.shop.triggers[tag]}
            </li>
          ))}
        </ul>
      </details>
    </HomeFrame>
  );
}
