import { formEn, formEs } from "./messages-customer-form";
import { offersEn, offersEs } from "./messages-offers";
import { statusEn, statusEs } from "./messages-status";
import type { Locale } from "./locales";

export type { CustomerErrorMessages, FormMessages } from "./messages-customer-form";
export type { StateText } from "./messages-status";

/**
 * Every string of the customer-facing UI, in Spanish (the source: most customers) and English.
 * `en` is typed by `es`, so a key missing in either language is a type error. Functions take the
 * already formatted values (amounts, dates, percentages): formatting is the page's job.
 *
 * The `form` part is handed to a client component, so it holds strings only (functions cannot
 * cross the server/client boundary).
 */

const es = {
  meta: {
    appName: "Financiación de viajes",
    description: "Paga tu viaje a plazos: un checkout de marca blanca para agencias de viajes.",
    customerTitle: "Tus datos",
    offersTitle: "Elige cómo pagar",
    statusTitle: "Estado de tu financiación",
    agencyUnavailableTitle: "Pago no disponible",
    notFoundTitle: "Pago no encontrado",
  },
  common: {
    skipToContent: "Saltar al contenido",
    checkoutKind: "Pago a plazos",
    switchLanguage: "Cambiar idioma:",
    backToPartner: (partner: string) => `Volver a ${partner}`,
    payAnotherWay: (partner: string) => `Volver a ${partner} para pagar de otra forma`,
    checkAgain: "Comprobar de nuevo",
    tryAgain: "Intentarlo de nuevo",
    sending: "Enviando…",
    stepsLabel: "Pasos del pago",
    steps: ["Tus datos", "Elige un plan", "Firma"] as [string, string, string],
    stepOf: (step: number, total: number) => `Paso ${step} de ${total}`,
    stepDone: "completado",
  },
  shop: {
    shopName: "Viajes Aurora (demo)",
    title: "Paga tu viaje a plazos",
    intro:
      "Una tienda de ejemplo para el checkout de marca blanca para agencias de viajes: elige pagar este viaje a plazos y recorre todo el proceso, con el entorno de pruebas (sandbox) de la entidad financiera.",
    tripHeading: "Viaje de ejemplo",
    travellers: (n: number) => (n === 1 ? "1 viajero" : `${n} viajeros`),
    flight: (origin: string, destination: string) => `Vuelo ${origin} → ${destination}, ida y vuelta`,
    hotel: (name: string, nights: number) => `${name}, ${nights} noches`,
    dates: (from: string, to: string) => `Del ${from} al ${to}`,
    total: "Total",
    payButton: "Pagar a plazos",
    payHint: "Es una demostración: ningún pago es real.",
    unavailable: "La demostración no está disponible: no hay una agencia de demostración configurada.",
    busy: "Se han abierto demasiados pagos de demostración desde tu red. Espera un minuto y vuelve a intentarlo.",
    outcomeHeading: "Has vuelto del pago a plazos",
    outcomeNote: "El resultado del enlace es solo una pista: una agencia real lo comprueba con su API antes de confirmar la reserva.",
    triggersHeading: "Para probar otros resultados",
    triggersIntro: "Añade una etiqueta al e-mail del cliente en el formulario, por ejemplo ana+refuse_offer@example.com:",
    triggers: {
      refuse_offer: "la entidad rechaza el plan elegido y ofrece alternativas",
      error_offer: "error técnico con el plan elegido, con alternativas",
      refuse_all: "todas las entidades rechazan la financiación",
      refuse_first: "la primera entidad rechaza y otra acepta",
      error: "error técnico al pedir la financiación",
      decline: "la entidad rechaza después de firmar",
      not_eligible: "el cliente no puede financiar",
    },
  },
  /** The home page with the production partner API: what the service is, no demo (app/page.tsx). */
  home: {
    title: "Pago a plazos de viajes",
    intro:
      "Este servicio permite a los clientes de las agencias de viajes que lo ofrecen pagar su viaje a plazos, con la financiación de una entidad de crédito.",
    customerHeading: "¿Vas a pagar tu viaje?",
    customerBody:
      "Entra desde el enlace que te ha dado tu agencia de viajes: en su web, o por correo electrónico o mensaje. Si no lo tienes, pídeselo a tu agencia; desde aquí no se puede empezar un pago.",
    staffHeading: "¿Trabajas en una agencia?",
    staffLink: "Accede a la gestión de tu agencia",
  },
  booking: {
    heading: "Tu viaje",
    reference: "Referencia",
    travellers: (n: number) => (n === 1 ? "1 viajero" : `${n} viajeros`),
    flights: "Vuelos",
    hotels: "Alojamiento",
    services: "Servicios",
    flightLine: (origin: string, destination: string) => `${origin} → ${destination}`,
    flightDates: (departure: string, ret: string | undefined) => (ret ? `Ida ${departure}, vuelta ${ret}` : `Ida ${departure}`),
    hotelDates: (checkIn: string, checkOut: string) => `Del ${checkIn} al ${checkOut}`,
    total: "Precio total",
  },
  form: formEs,
  offers: offersEs,
  status: statusEs,
  badge: {
    /** The installment badge on a partner's product page: "desde 24 × 56,94 €/mes". */
    from: (installments: number, monthly: string) => `desde ${installments} × ${monthly}/mes`,
    exampleToggle: "Ejemplo representativo",
  },
  theme: {
    previewLabel: (partner: string) => `Vista previa del tema de ${partner}`,
    sampleIntro: "Así verán tus clientes el pago a plazos.",
    sampleMonthly: "56,94 €",
    sampleNotice: "Tus datos están enviados. Ahora elige cómo quieres pagar.",
    sampleError: "Escribe un correo electrónico válido",
  },
  /** A checkout of a partner an operator disabled: nothing can be done here any more. */
  agencyUnavailable: {
    title: "El pago a plazos de esta agencia no está disponible",
    body: (partner: string) =>
      `${partner} no tiene disponible el pago a plazos en este momento, así que este pago no puede seguir aquí. Si ya habías completado la financiación, la agencia tiene sus datos. Para cualquier duda, o para pagar de otra forma, ponte en contacto con la agencia.`,
  },
  notFound: {
    title: "No encontramos este pago",
    body: "El enlace puede estar incompleto o ya no es válido. Vuelve a la web de tu agencia y empieza el pago de nuevo.",
    home: "Ir al inicio",
  },
  /** The pages the server answers itself when a page fails (lib/i18n/error-page.ts): no JavaScript needed. */
  errorPage: {
    unavailableTitle: "Vuelve a intentarlo en un momento",
    unavailableBody: "Ahora mismo no podemos atenderte. Espera unos segundos y vuelve a intentarlo.",
    errorTitle: "Algo ha fallado",
    errorBody: "Ha habido un error por nuestra parte. Vuelve a intentarlo; si sigue fallando, vuelve a la web de tu agencia.",
    retry: "Volver a intentarlo",
    home: "Ir al inicio",
    reference: "Referencia del error:",
  },
};

export type Messages = typeof es;

const en: Messages = {
  meta: {
    appName: "Travel financing checkout",
    description: "Pay a trip in installments: a white-label checkout for travel agencies.",
    customerTitle: "Your details",
    offersTitle: "Choose how to pay",
    statusTitle: "Your financing status",
    agencyUnavailableTitle: "Payment unavailable",
    notFoundTitle: "Payment not found",
  },
  common: {
    skipToContent: "Skip to content",
    checkoutKind: "Installment payment",
    switchLanguage: "Change language:",
    backToPartner: (partner) => `Back to ${partner}`,
    payAnotherWay: (partner) => `Back to ${partner} to pay another way`,
    checkAgain: "Check again",
    tryAgain: "Try again",
    sending: "Sending…",
    stepsLabel: "Checkout steps",
    steps: ["Your details", "Choose a plan", "Sign"],
    stepOf: (step, total) => `Step ${step} of ${total}`,
    stepDone: "done",
  },
  shop: {
    shopName: "Viajes Aurora (demo)",
    title: "Pay your trip in installments",
    intro:
      "A demo shop for the white-label checkout for travel agencies: choose to pay this trip in installments and walk through the whole flow, against the finance provider's sandbox.",
    tripHeading: "Sample trip",
    travellers: (n) => (n === 1 ? "1 traveller" : `${n} travellers`),
    flight: (origin, destination) => `Flight ${origin} → ${destination}, return`,
    hotel: (name, nights) => `${name}, ${nights} nights`,
    dates: (from, to) => `${from} to ${to}`,
    total: "Total",
    payButton: "Pay in installments",
    payHint: "This is a demo: no payment is real.",
    unavailable: "The demo is not available: no demo agency is configured.",
    busy: "Too many demo payments were opened from your network. Wait a minute and try again.",
    outcomeHeading: "You are back from the installment payment",
    outcomeNote: "The outcome in the link is only a hint: a real agency checks it with its API before confirming the booking.",
    triggersHeading: "To try other outcomes",
    triggersIntro: "Add a tag to the customer's e-mail in the form, for example ana+refuse_offer@example.com:",
    triggers: {
      refuse_offer: "the provider refuses the chosen plan and offers alternatives",
      error_offer: "a technical error with the chosen plan, with alternatives",
      refuse_all: "every provider refuses the financing",
      refuse_first: "the first provider refuses and another accepts",
      error: "a technical error when requesting the financing",
      decline: "the provider declines after signing",
      not_eligible: "the customer cannot get financing",
    },
  },
  home: {
    title: "Trips paid in installments",
    intro:
      "This service lets the customers of the travel agencies that offer it pay their trip in installments, financed by a credit provider.",
    customerHeading: "Paying for your trip?",
    customerBody:
      "Open the link your travel agency gave you: on its website, or by e-mail or message. If you do not have it, ask your agency; a payment cannot be started from here.",
    staffHeading: "Working at an agency?",
    staffLink: "Sign in to your agency's back-office",
  },
  booking: {
    heading: "Your trip",
    reference: "Reference",
    travellers: (n) => (n === 1 ? "1 traveller" : `${n} travellers`),
    flights: "Flights",
    hotels: "Accommodation",
    services: "Services",
    flightLine: (origin, destination) => `${origin} → ${destination}`,
    flightDates: (departure, ret) => (ret ? `Out ${departure}, back ${ret}` : `Out ${departure}`),
    hotelDates: (checkIn, checkOut) => `${checkIn} to ${checkOut}`,
    total: "Total price",
  },
  form: formEn,
  offers: offersEn,
  status: statusEn,
  badge: {
    from: (installments, monthly) => `from ${installments} × ${monthly} per month`,
    exampleToggle: "Representative example",
  },
  theme: {
    previewLabel: (partner) => `Preview of ${partner}'s theme`,
    sampleIntro: "This is how your customers will see the installment checkout.",
    sampleMonthly: "€56.94",
    sampleNotice: "Your details are sent. Now choose how you want to pay.",
    sampleError: "Enter a valid e-mail address",
  },
  agencyUnavailable: {
    title: "This agency's installment payments are unavailable",
    body: (partner) =>
      `${partner} does not offer paying in installments at the moment, so this payment cannot go on here. If you had already completed the financing, the agency has its details. For any question, or to pay another way, please contact the agency.`,
  },
  notFound: {
    title: "We cannot find this payment",
    body: "The link may be incomplete or no longer valid. Go back to your agency's website and start the payment again.",
    home: "Go to the home page",
  },
  errorPage: {
    unavailableTitle: "Please try again in a moment",
    unavailableBody: "We cannot serve you right now. Wait a few seconds and try again.",
    errorTitle: "Something went wrong",
    errorBody: "Something failed on our side. Try again; if it keeps failing, go back to your agency's website.",
    retry: "Try again",
    home: "Go to the home page",
    reference: "Error reference:",
  },
};

export const MESSAGES: Record<Locale, Messages> = { es, en };
