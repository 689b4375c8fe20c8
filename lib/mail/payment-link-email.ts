import type { Locale } from "@/lib/i18n/locales";
import { inertText } from "./inert-text";
import { linkEmail } from "./link-email-layout";

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
  return linkEmail({
    locale: input.locale,
    subject: t.subject(input.partnerName),
    audience: "customer",
    greeting: t.greeting,
    intro: t.intro(input.partnerName),
    rows: [
      [t.trip, trip],
      [t.amount, input.amount],
    ],
    lead: t.open,
    link: input.link,
    button: t.button,
    expires: t.expires(input.expiresAt),
    notYou: t.notYou,
  });
}
