import { html } from "hono/html";
import type { SandboxOperation } from "../operation";
import { PROVIDERS, type SandboxOffer } from "../offers";
import { formatMoney, formatPercent } from "./format";
import { documentPage, type Html, type PageLocale } from "./layout";

/**
 * The hosted pages' markup, in the customer's language (`text.ts`). Every value goes through
 * `html`'s escaping: the client's name, the package name and the references are the partner's (or
 * the customer's) input.
 */

export interface Link {
  href: string;
  text: string;
}

// ---------------------------------------------------------------------------------------------
// The financing page (`financingUrl`)

export interface FinancingViewOptions {
  operation: SandboxOperation;
  offers: readonly SandboxOffer[];
  /** Shown above the plans, announced to screen readers (refusal, missing or tampered choice). */
  alert?: string;
}

export function financingView(locale: PageLocale, { operation, offers, alert }: FinancingViewOptions): Html {
  const { t } = locale;
  return documentPage({
    locale,
    title: t.financing.title,
    body: html`<h1>${t.financing.title}</h1>
${tripCard(locale, operation)}
${alert === undefined ? "" : html`<div class="alert" role="alert">${alert}</div>`}
<form method="post">
<fieldset>
<legend>${t.financing.plans}</legend>
${offers.map((offer) => offerOption(locale, offer))}
</fieldset>
<p class="small muted">${t.financing.smallPrint}</p>
<div class="actions"><button class="button button-primary" type="submit">${t.financing.continue}</button></div>
</form>`,
  });
}

function tripCard(locale: PageLocale, operation: SandboxOperation): Html {
  const { t } = locale;
  const { travelersNumber, client } = operation.request;
  return html`<section class="card" aria-labelledby="trip-heading">
<h2 id="trip-heading">${t.trip.heading}</h2>
<dl class="facts facts-text">
<dt>${t.trip.trip}</dt><dd class="text">${tripName(locale, operation)}</dd>
<dt>${t.trip.price}</dt><dd class="text">${formatMoney(operation.totalPriceCents)}</dd>
<dt>${t.trip.travellers}</dt><dd class="text">${travelersNumber}</dd>
<dt>${t.trip.customer}</dt><dd class="text">${client.firstName} ${client.lastName}</dd>
${operation.externalId === null ? "" : html`<dt>${t.trip.booking}</dt><dd class="text">${operation.externalId}</dd>`}
</dl>
</section>`;
}

function tripName({ t }: Pick<PageLocale, "t">, operation: SandboxOperation): string {
  return operation.request.packageName?.trim() || t.trip.defaultName;
}

/** "Banca Nube: 3 monthly installments of 411,50 € (first installment 442,36 €)". */
function planLine(locale: Pick<PageLocale, "t">, offer: SandboxOffer): string {
  return `${offer.companyName}: ${plan(locale, offer)}`;
}

/** "3 monthly installments of 411,50 € (first installment 442,36 €)". */
function plan({ t }: Pick<PageLocale, "t">, offer: SandboxOffer): string {
  return t.plan({
    count: offer.installments,
    regular: formatMoney(offer.commonQuotaCents),
    ...(differs(offer) ? { differing: { first: offer.differentialIsFirst, amount: formatMoney(offer.differentialQuotaCents) } } : {}),
  });
}

function offerOption(locale: PageLocale, offer: SandboxOffer): Html {
  const id = `offer-${offer.id}`;
  // The label is the short name a customer (or a role-based test) picks by; the figures describe it.
  return html`<div class="offer">
<label class="offer-choice" for="${id}">
<input type="radio" name="offerId" id="${id}" value="${offer.id}" required aria-describedby="${id}-details">
<span>${planLine(locale, offer)}</span>
</label>
<dl class="facts" id="${id}-details">
${offerFacts(locale, offer)}
</dl>
</div>`;
}

function differs(offer: SandboxOffer): boolean {
  return offer.installments > 1 && offer.differentialQuotaCents !== offer.commonQuotaCents;
}

function offerFacts({ t }: PageLocale, offer: SandboxOffer): Html {
  return html`<dt>${t.facts.regular}</dt><dd>${formatMoney(offer.commonQuotaCents)}</dd>
${differs(offer) ? html`<dt>${t.facts.differs(offer.differentialIsFirst)}</dt><dd>${formatMoney(offer.differentialQuotaCents)}</dd>` : ""}
<dt>${t.facts.tin}</dt><dd>${formatPercent(offer.tin)}</dd>
<dt>${t.facts.tae}</dt><dd>${formatPercent(offer.tae)}</dd>
<dt>${t.facts.financed}</dt><dd>${formatMoney(offer.totalFinancedCents)}</dd>
<dt>${t.facts.interest}</dt><dd>${formatMoney(offer.totalInterestPaidCents)}</dd>
${offer.openingFeeCents > 0 ? html`<dt>${t.facts.openingFee}</dt><dd>${formatMoney(offer.openingFeeCents)}</dd>` : ""}
<dt class="total">${t.facts.totalOwed}</dt><dd class="total">${formatMoney(offer.totalOwedCents)}</dd>`;
}

export function notEligibleView(locale: PageLocale, operation: SandboxOperation, reason: "not_eligible" | "no_offers", next: Link): Html {
  const { t } = locale;
  const explanation = reason === "not_eligible" ? t.unavailable.notEligible : t.unavailable.noOffers;
  return documentPage({
    locale,
    title: t.unavailable.title,
    body: html`<h1>${t.unavailable.title}</h1>
<div class="card outcome outcome-failure"><p>${explanation}</p><p>${t.unavailable.payAnotherWay}</p></div>
${tripCard(locale, operation)}
<div class="actions"><a class="button button-primary" href="${next.href}">${next.text}</a></div>`,
  });
}

// ---------------------------------------------------------------------------------------------
// The provider checkout (`paymentUrl`)

export interface CheckoutViewOptions {
  operation: SandboxOperation;
  financing: NonNullable<SandboxOperation["financing"]>;
  signAction: string;
  declineAction: string;
}

export function checkoutView(locale: PageLocale, { operation, financing, signAction, declineAction }: CheckoutViewOptions): Html {
  const { t } = locale;
  const { offer } = financing;
  const { client } = operation.request;
  const refusedNames = financing.refusedProviders.map((id) => PROVIDERS.find((p) => p.id === id)?.name ?? id);
  return documentPage({
    locale,
    title: t.checkout.title(offer.companyName),
    providerName: offer.companyName,
    body: html`<h1>${t.checkout.heading}</h1>
${
  refusedNames.length === 0
    ? ""
    : html`<div class="notice" role="status">${t.checkout.otherProviders(refusedNames.join(", "), offer.companyName, offer.installments)}</div>`
}
<section class="card" aria-labelledby="plan-heading">
<h2 id="plan-heading">${plan(locale, offer)}</h2>
<dl class="facts facts-text">
<dt>${t.checkout.applicant}</dt><dd class="text">${client.firstName} ${client.lastName}</dd>
<dt>${t.trip.trip}</dt><dd class="text">${tripName(locale, operation)}</dd>
</dl>
<dl class="facts">
<dt>${t.facts.installments}</dt><dd>${offer.installments}</dd>
${offerFacts(locale, offer)}
</dl>
</section>
<section class="card">
${scheduleTable(locale, offer)}
</section>
<form method="post" action="${signAction}" class="card">
<p>${t.checkout.consent(offer.companyName)}</p>
<div class="actions actions-2">
<button class="button button-primary" type="submit">${t.checkout.sign}</button>
<button class="button button-secondary" type="submit" formaction="${declineAction}">${t.checkout.decline}</button>
</div>
</form>`,
  });
}

function scheduleTable({ t }: PageLocale, offer: SandboxOffer): Html {
  const differing = differs(offer) ? (offer.differentialIsFirst ? 1 : offer.installments) : undefined;
  return html`<table>
<caption>${t.schedule.caption}</caption>
<thead><tr><th scope="col">${t.schedule.month}</th><th scope="col" class="num">${t.schedule.amount}</th></tr></thead>
<tbody>
${offer.schedule.map((cents, index) => {
  const month = index + 1;
  return month === differing
    ? html`<tr class="differs"><th scope="row">${t.schedule.monthN(month)} <span class="tag">${t.schedule.differs}</span></th><td class="num"><strong>${formatMoney(cents)}</strong></td></tr>`
    : html`<tr><th scope="row">${t.schedule.monthN(month)}</th><td class="num">${formatMoney(cents)}</td></tr>`;
})}
</tbody>
<tfoot><tr><th scope="row">${t.facts.totalOwed}</th><td class="num"><strong>${formatMoney(offer.totalOwedCents)}</strong></td></tr></tfoot>
</table>
${differing === undefined ? "" : html`<p class="small muted">${whyMonthDiffers({ t }, offer, differing)}</p>`}`;
}

function whyMonthDiffers({ t }: Pick<PageLocale, "t">, offer: SandboxOffer, month: number): string {
  const fee = offer.differentialIsFirst ? offer.openingFeeCents : 0;
  const rounding = offer.differentialQuotaCents - offer.commonQuotaCents - fee;
  return t.schedule.why(month, {
    ...(fee > 0 ? { fee: formatMoney(fee) } : {}),
    ...(rounding !== 0 ? { rounding: { amount: formatMoney(Math.abs(rounding)), more: rounding > 0 } } : {}),
  });
}

// ---------------------------------------------------------------------------------------------
// Outcome and state pages

export interface StatusViewOptions {
  operation: SandboxOperation;
  next?: Link;
  /** Overrides the status's own heading (the result page of an ineligible operation). */
  heading?: string;
  explanation?: string;
}

/** Where an operation stands, in plain words: the default result page, and pages opened too late. */
export function statusView(locale: PageLocale, { operation, next, heading, explanation }: StatusViewOptions): Html {
  const { t } = locale;
  const text = t.status[operation.status];
  const title = heading ?? text.heading;
  const offer = operation.financing?.offer;
  // The engine's own note (English, as in the control API's history): a detail for QA.
  const lastNote = operation.history.at(-1)?.note;
  return documentPage({
    locale,
    title,
    body: html`<h1>${title}</h1>
<div class="card outcome outcome-${text.tone}">
<p>${explanation ?? text.explanation}</p>
<p class="small">${t.result.statusLabel}: <span class="status">${operation.status}</span>${lastNote ? html` · <span lang="en">${lastNote}</span>` : ""}</p>
</div>
<section class="card" aria-labelledby="summary-heading">
<h2 id="summary-heading">${t.result.summary}</h2>
<dl class="facts facts-text">
<dt>${t.trip.trip}</dt><dd class="text">${tripName(locale, operation)}</dd>
<dt>${t.trip.price}</dt><dd class="text">${formatMoney(operation.totalPriceCents)}</dd>
${operation.externalId === null ? "" : html`<dt>${t.trip.booking}</dt><dd class="text">${operation.externalId}</dd>`}
<dt>${t.trip.operation}</dt><dd class="text">${operation.id}</dd>
${offer === undefined ? "" : html`<dt>${t.trip.plan}</dt><dd class="text">${planLine(locale, offer)}</dd>`}
</dl>
</section>
${next === undefined ? "" : html`<div class="actions"><a class="button button-primary" href="${next.href}">${next.text}</a></div>`}`,
  });
}

/** A page for a request the sandbox cannot serve: bad link, bad form, a state conflict. */
export function messageView(locale: PageLocale, options: { title: string; message: string; detail?: string; next?: Link }): Html {
  const { title, message, detail, next } = options;
  return documentPage({
    locale,
    title,
    body: html`<h1>${title}</h1>
<div class="card outcome outcome-failure">
<p>${message}</p>
${detail === undefined ? "" : html`<p class="small muted wrap">${detail}</p>`}
</div>
${next === undefined ? "" : html`<div class="actions"><a class="button button-primary" href="${next.href}">${next.text}</a></div>`}`,
  });
}

export function invalidLinkView(locale: PageLocale): Html {
  return messageView(locale, locale.t.errors.invalidLink);
}
