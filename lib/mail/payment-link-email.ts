import type { Locale } from "@/lib/i18n/locales";
import { escapeHtml } from "@/lib/text/escape-html";
import { inertText } from "./inert-text";

/**
 * The payment link e-mail, in the customer's language: who sends it (the agency), the trip, the
 * amount, the link and until when it works. Pure, and on purpose it is handed nothing else: its
 * input has no field for the customer's name, document, birth date, phone or address, so none of
 * them can end up in a mailbox or a mail server's logs.
 */

export interface PaymentLinkEmailInput {
  locale: Locale;
  partnerName: string;
  /** Typed by staff: rendered inert (inertText), so that no mail client makes a link of it. */
  packageName: string;
  /** Formatted already, in the e-mail's language ("1.234,50 €"). */
  amount: string;
  /** The checkout page: the app's URL and the session id, nothing else. */
  link: string;
  /** Formatted already ("24 de noviembre, 10:30"). */
  expiresAt: string;
}

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

const TEXTS = {
  es: {
    subject: (partner: string) => `${partner}: tu enlace para pagar a plazos`,
    greeting: "Hola:",
    intro: (partner: string) => `${partner} te envía el enlace para pagar tu viaje a plazos.`,
    trip: "Viaje",
    amount: "Importe",
    open: "Abre este enlace para elegir el plan y terminar el pago:",
    button: "Pagar a plazos",
    expires: (at: string) => `El enlace caduca el ${at}.`,
    notYou: "Si no esperabas este mensaje, ignóralo: sin abrir el enlace no se paga nada.",
  },
  en: {
    subject: (partner: string) => `${partner}: your link to pay in installments`,
    greeting: "Hello,",
    intro: (partner: string) => `${partner} sends you the link to pay for your trip in installments.`,
    trip: "Trip",
    amount: "Amount",
    open: "Open this link to choose a plan and finish the payment:",
    button: "Pay in installments",
    expires: (at: string) => `The link expires on ${at}.`,
    notYou: "If you were not expecting this message, ignore it: nothing is paid unless the link is opened.",
  },
} satisfies Record<Locale, unknown>;

export function paymentLinkEmail(input: PaymentLinkEmailInput): EmailContent {
  const t = TEXTS[input.locale];
  // The only free text in the message: under our sender, a name like "Pay at evil.example" must not become a link.
  const trip = inertText(input.packageName);
  const subject = t.subject(input.partnerName);
  const text = [
    t.greeting,
    "",
    t.intro(input.partnerName),
    "",
    `${t.trip}: ${trip}`,
    `${t.amount}: ${input.amount}`,
    "",
    t.open,
    input.link,
    "",
    t.expires(input.expiresAt),
    "",
    t.notYou,
  ].join("\n");
  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="${input.locale}"><head><meta charset="utf-8"><title>${e(subject)}</title></head>
<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1a1a1a">
<p>${e(t.greeting)}</p>
<p>${e(t.intro(input.partnerName))}</p>
<table role="presentation" style="border-collapse:collapse">
<tr><th scope="row" style="text-align:left;padding-right:1em">${e(t.trip)}</th><td>${e(trip)}</td></tr>
<tr><th scope="row" style="text-align:left;padding-right:1em">${e(t.amount)}</th><td>${e(input.amount)}</td></tr>
</table>
<p>${e(t.open)}</p>
<p><a href="${e(input.link)}" style="display:inline-block;padding:12px 20px;background:#0b5cad;color:#ffffff;text-decoration:none;border-radius:6px">${e(t.button)}</a></p>
<p>${e(input.link)}</p>
<p>${e(t.expires(input.expiresAt))}</p>
<p style="color:#555">${e(t.notYou)}</p>
</body></html>`;
  return { subject, text, html };
}
