import { html } from "hono/html";
import type { OperationStatus } from "@/lib/financing/contract";
import type { SandboxOperation } from "../engine";
import { PROVIDERS, type SandboxOffer } from "../offers";
import { formatMoney, formatPercent, installmentsLabel } from "./format";
import { documentPage, type Html } from "./layout";

/**
 * The hosted pages' markup. Every value goes through `html`'s escaping: the client's name, the
 * package name and the references are the partner's (or the customer's) input.
 */

export interface Link {
  href: string;
  text: string;
}

type Tone = "success" | "failure" | "info";

/** Plain words for each status, for customers who land on a page after the fact. */
const STATUS_TEXT: Record<OperationStatus, { heading: string; explanation: string; tone: Tone }> = {
  GENERATED: { heading: "Financing not started", explanation: "No plan has been chosen yet.", tone: "info" },
  PENDING: { heading: "Financing not finished", explanation: "No plan has been chosen yet. You can still choose one.", tone: "info" },
  CLIENT_REQUESTED: {
    heading: "Plan chosen: signature pending",
    explanation: "The provider accepted the request and is waiting for you to review and sign the plan.",
    tone: "info",
  },
  PENDING_RESPONSE: {
    heading: "Waiting for the provider",
    explanation: "You signed the plan and the provider is deciding. The shop will tell you the outcome.",
    tone: "info",
  },
  FAVORABLE: { heading: "Financing approved", explanation: "The provider approved the financing; it is being confirmed.", tone: "success" },
  CONFIRMED: {
    heading: "Financing confirmed",
    explanation: "The provider approved your financing and it is now active. The shop will confirm your booking.",
    tone: "success",
  },
  REFUSED: {
    heading: "Financing refused",
    explanation: "The financing was not approved, so no installment will be charged. You can pay for the trip another way at the shop.",
    tone: "failure",
  },
  REFUNDED: {
    heading: "Financing refunded",
    explanation: "This financing was confirmed and later refunded through the provider.",
    tone: "info",
  },
  CANCELLED: {
    heading: "Financing cancelled",
    explanation: "The shop cancelled this financing before it was signed. Nothing will be charged.",
    tone: "failure",
  },
  EXPIRED: {
    heading: "Financing link expired",
    explanation: "The time to complete this financing ran out. Nothing will be charged. Start again from the shop.",
    tone: "failure",
  },
  ERROR: {
    heading: "Financing could not be completed",
    explanation: "A technical error stopped the financing. Nothing will be charged. Try again later or pay another way at the shop.",
    tone: "failure",
  },
  FINISHED: { heading: "Financing finished", explanation: "This financing is complete: the trip has taken place.", tone: "info" },
};

// ---------------------------------------------------------------------------------------------
// The financing page (`financingUrl`)

export interface FinancingViewOptions {
  operation: SandboxOperation;
  offers: readonly SandboxOffer[];
  /** Shown above the plans, announced to screen readers (refusal, missing or tampered choice). */
  alert?: string;
}

export function financingView({ operation, offers, alert }: FinancingViewOptions): Html {
  return documentPage({
    title: "Choose your installment plan",
    body: html`<h1>Choose your installment plan</h1>
${tripCard(operation)}
${alert === undefined ? "" : html`<div class="alert" role="alert">${alert}</div>`}
<form method="post">
<fieldset>
<legend>Installment plans</legend>
${offers.map(offerOption)}
</fieldset>
<p class="small muted">TIN: nominal interest rate. TAE: annual percentage rate, fees included. Borrowing money costs money:
check that you can afford the installments. The provider you choose reviews your request next.</p>
<div class="actions"><button class="button button-primary" type="submit">Continue to the provider</button></div>
</form>`,
  });
}

function tripCard(operation: SandboxOperation): Html {
  const { travelersNumber, client } = operation.request;
  return html`<section class="card" aria-labelledby="trip-heading">
<h2 id="trip-heading">Your trip</h2>
<dl class="facts facts-text">
<dt>Trip</dt><dd class="text">${tripName(operation)}</dd>
<dt>Price</dt><dd class="text">${formatMoney(operation.totalPriceCents)}</dd>
<dt>Travellers</dt><dd class="text">${travelersNumber}</dd>
<dt>Customer</dt><dd class="text">${client.firstName} ${client.lastName}</dd>
${operation.externalId === null ? "" : html`<dt>Booking</dt><dd class="text">${operation.externalId}</dd>`}
</dl>
</section>`;
}

function tripName(operation: SandboxOperation): string {
  return operation.request.packageName?.trim() || "Trip package";
}

function offerOption(offer: SandboxOffer): Html {
  const id = `offer-${offer.id}`;
  // The label is the short name a customer (or a role-based test) picks by; the figures describe it.
  return html`<div class="offer">
<label class="offer-choice" for="${id}">
<input type="radio" name="offerId" id="${id}" value="${offer.id}" required aria-describedby="${id}-details">
<span>${offer.companyName}: ${installmentsLabel(offer.installments)} of ${formatMoney(offer.commonQuotaCents)}</span>
</label>
<dl class="facts" id="${id}-details">
${offerFacts(offer)}
</dl>
</div>`;
}

function differs(offer: SandboxOffer): boolean {
  return offer.installments > 1 && offer.differentialQuotaCents !== offer.commonQuotaCents;
}

function offerFacts(offer: SandboxOffer): Html {
  return html`<dt>Regular installment</dt><dd>${formatMoney(offer.commonQuotaCents)}</dd>
${
  differs(offer)
    ? html`<dt>${offer.differentialIsFirst ? "First" : "Last"} installment (differs)</dt><dd>${formatMoney(offer.differentialQuotaCents)}</dd>`
    : ""
}
<dt>TIN</dt><dd>${formatPercent(offer.tin)}</dd>
<dt>TAE</dt><dd>${formatPercent(offer.tae)}</dd>
<dt>Total financed</dt><dd>${formatMoney(offer.totalFinancedCents)}</dd>
<dt>Interest</dt><dd>${formatMoney(offer.totalInterestPaidCents)}</dd>
${offer.openingFeeCents > 0 ? html`<dt>Opening fee</dt><dd>${formatMoney(offer.openingFeeCents)}</dd>` : ""}
<dt class="total">Total owed</dt><dd class="total">${formatMoney(offer.totalOwedCents)}</dd>`;
}

export function notEligibleView(operation: SandboxOperation, reason: "not_eligible" | "no_offers", next: Link): Html {
  const explanation =
    reason === "not_eligible"
      ? "Financing is not available for this booking: the providers cannot offer you a plan. Nothing has been charged."
      : "No provider offers a plan for this amount. Nothing has been charged.";
  return documentPage({
    title: "Financing not available",
    body: html`<h1>Financing not available</h1>
<div class="card outcome outcome-failure"><p>${explanation}</p><p>You can pay for the trip another way at the shop.</p></div>
${tripCard(operation)}
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

export function checkoutView({ operation, financing, signAction, declineAction }: CheckoutViewOptions): Html {
  const { offer } = financing;
  const { client } = operation.request;
  const refusedNames = financing.refusedProviders.map((id) => PROVIDERS.find((p) => p.id === id)?.name ?? id);
  return documentPage({
    title: `Review and sign: ${offer.companyName}`,
    providerName: offer.companyName,
    body: html`<h1>Review and sign your plan</h1>
${
  refusedNames.length === 0
    ? ""
    : html`<div class="notice" role="status">${refusedNames.join(", ")} could not approve your request. ${offer.companyName} accepted it for the same ${offer.installments} installments, on its own terms: review them below before signing.</div>`
}
<section class="card" aria-labelledby="plan-heading">
<h2 id="plan-heading">${installmentsLabel(offer.installments)} of ${formatMoney(offer.commonQuotaCents)}</h2>
<dl class="facts facts-text">
<dt>Applicant</dt><dd class="text">${client.firstName} ${client.lastName}</dd>
<dt>Trip</dt><dd class="text">${tripName(operation)}</dd>
</dl>
<dl class="facts">
<dt>Installments</dt><dd>${offer.installments}</dd>
${offerFacts(offer)}
</dl>
</section>
<section class="card">
${scheduleTable(offer)}
</section>
<form method="post" action="${signAction}" class="card">
<p>By signing you accept the plan above with ${offer.companyName}. Borrowing money costs money.</p>
<div class="actions actions-2">
<button class="button button-primary" type="submit">Sign and accept</button>
<button class="button button-secondary" type="submit" formaction="${declineAction}">Decline</button>
</div>
</form>`,
  });
}

function scheduleTable(offer: SandboxOffer): Html {
  const differing = differs(offer) ? (offer.differentialIsFirst ? 1 : offer.installments) : undefined;
  return html`<table>
<caption>Payment schedule</caption>
<thead><tr><th scope="col">Month</th><th scope="col" class="num">Amount</th></tr></thead>
<tbody>
${offer.schedule.map((cents, index) => {
  const month = index + 1;
  return month === differing
    ? html`<tr class="differs"><th scope="row">Month ${month} <span class="tag">differs</span></th><td class="num"><strong>${formatMoney(cents)}</strong></td></tr>`
    : html`<tr><th scope="row">Month ${month}</th><td class="num">${formatMoney(cents)}</td></tr>`;
})}
</tbody>
<tfoot><tr><th scope="row">Total owed</th><td class="num"><strong>${formatMoney(offer.totalOwedCents)}</strong></td></tr></tfoot>
</table>
${differing === undefined ? "" : html`<p class="small muted">${whyMonthDiffers(offer, differing)}</p>`}`;
}

function whyMonthDiffers(offer: SandboxOffer, month: number): string {
  const fee = offer.differentialIsFirst ? offer.openingFeeCents : 0;
  const rounding = offer.differentialQuotaCents - offer.commonQuotaCents - fee;
  const parts = [
    ...(fee > 0 ? [`it includes the opening fee of ${formatMoney(fee)}`] : []),
    ...(rounding !== 0 ? [`${formatMoney(Math.abs(rounding))} ${rounding > 0 ? "more" : "less"} for rounding`] : []),
  ];
  return `Month ${month} differs from the others: ${parts.join(" and ")}.`;
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
export function statusView({ operation, next, heading, explanation }: StatusViewOptions): Html {
  const text = STATUS_TEXT[operation.status];
  const title = heading ?? text.heading;
  const offer = operation.financing?.offer;
  const lastNote = operation.history.at(-1)?.note;
  return documentPage({
    title,
    body: html`<h1>${title}</h1>
<div class="card outcome outcome-${text.tone}">
<p>${explanation ?? text.explanation}</p>
<p class="small">Status: <span class="status">${operation.status}</span>${lastNote ? html` · ${lastNote}` : ""}</p>
</div>
<section class="card" aria-labelledby="summary-heading">
<h2 id="summary-heading">Summary</h2>
<dl class="facts facts-text">
<dt>Trip</dt><dd class="text">${tripName(operation)}</dd>
<dt>Price</dt><dd class="text">${formatMoney(operation.totalPriceCents)}</dd>
${operation.externalId === null ? "" : html`<dt>Booking</dt><dd class="text">${operation.externalId}</dd>`}
<dt>Operation</dt><dd class="text">${operation.id}</dd>
${
  offer === undefined
    ? ""
    : html`<dt>Plan</dt><dd class="text">${offer.companyName}: ${installmentsLabel(offer.installments)} of ${formatMoney(offer.commonQuotaCents)}</dd>`
}
</dl>
</section>
${next === undefined ? "" : html`<div class="actions"><a class="button button-primary" href="${next.href}">${next.text}</a></div>`}`,
  });
}

/** A page for a request the sandbox cannot serve: bad link, bad form, a state conflict. */
export function messageView(options: { title: string; message: string; detail?: string; next?: Link }): Html {
  const { title, message, detail, next } = options;
  return documentPage({
    title,
    body: html`<h1>${title}</h1>
<div class="card outcome outcome-failure">
<p>${message}</p>
${detail === undefined ? "" : html`<p class="small muted wrap">${detail}</p>`}
</div>
${next === undefined ? "" : html`<div class="actions"><a class="button button-primary" href="${next.href}">${next.text}</a></div>`}`,
  });
}

export function invalidLinkView(): Html {
  return messageView({
    title: "This link is not valid",
    message:
      "The financing link is invalid or incomplete: check that it was copied whole, or start again from the shop. Nothing has been charged.",
  });
}
