import type { CustomerField } from "@/lib/checkout/session/customer";
import type { SessionState } from "@/lib/vocabulary/session";
import type { Locale } from "./locales";

/**
 * Every string of the customer-facing UI, in Spanish (the source: most customers) and English.
 * `en` is typed by `es`, so a key missing in either language is a type error. Functions take the
 * already formatted values (amounts, dates, percentages): formatting is the page's job.
 *
 * The `form` part is handed to a client component, so it holds strings only (functions cannot
 * cross the server/client boundary).
 */

/** Per field, the messages of the codes that field can get (see lib/checkout/session/customer.ts). */
export interface CustomerErrorMessages {
  required: Record<CustomerField, string>;
  too_long: string;
  characters: string;
  email: string;
  prefix: string;
  phone: string;
  dni: string;
  dni_letter: string;
  nie: string;
  nie_letter: string;
  passport: string;
  date: { birthDate: string; documentValidityDate: string };
  expired: string;
  minor: string;
  too_old: string;
  gender: string;
  country: { nationality: string; countryCode: string };
  postal_code: string;
}

export interface StateText {
  /** What happened, as the page's heading. */
  title: string;
  /** What it means, in a sentence or two. */
  body: string;
}

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
  form: {
    title: "Tus datos",
    intro: "La entidad financiera necesita estos datos para estudiar tu solicitud. Todos los campos son obligatorios.",
    privacy: "Solo los usamos para tramitar la financiación con la entidad financiera.",
    legends: {
      personal: "Sobre ti",
      contact: "Contacto",
      document: "Documento de identidad",
      address: "Tu dirección",
    },
    labels: {
      firstName: "Nombre",
      lastName: "Apellidos",
      email: "Correo electrónico",
      prefix: "Prefijo",
      phone: "Teléfono móvil",
      documentType: "Tipo de documento",
      documentId: "Número de documento",
      documentValidityDate: "Fecha de caducidad del documento",
      gender: "Sexo (como figura en tu documento)",
      birthDate: "Fecha de nacimiento",
      nationality: "Nacionalidad",
      address: "Dirección (calle, número, piso)",
      city: "Localidad",
      postalCode: "Código postal",
      countryCode: "País",
    } satisfies Record<CustomerField, string>,
    hints: {
      prefix: "Ej.: +34",
      phone: "Sin el prefijo",
      documentId: "DNI: 8 números y una letra. NIE: X, Y o Z, 7 números y una letra.",
      birthDate: "Tienes que ser mayor de edad.",
    },
    documentTypes: { DNI: "DNI", NIE: "NIE", PASSPORT: "Pasaporte" },
    genders: { FEMALE: "Mujer", MALE: "Hombre" },
    chooseCountry: "Elige un país",
    submit: "Continuar",
    submitting: "Enviando…",
    summaryTitle: "Revisa estos datos",
    errorPrefix: "Error:",
    failures: {
      unavailable: "El servicio de financiación no responde ahora mismo. Tus datos están guardados: inténtalo de nuevo en un momento.",
      agency_unavailable: "Esta agencia no tiene disponible el pago a plazos en este momento: no se ha guardado nada.",
      expired: "Este pago ha caducado. Vuelve a la agencia para empezar de nuevo.",
      closed: "Este pago ya no admite cambios.",
      closedLink: "Ver el estado del pago",
      invalid: "No hemos podido leer algunos datos. Revísalos y vuelve a enviarlos.",
      not_editor:
        "Los datos de este pago ya se enviaron desde otro navegador o dispositivo, y solo desde ese se pueden corregir. Si no los enviaste tú, avisa a la agencia.",
      too_many_corrections:
        "Ya has corregido tus datos el máximo de veces. Puedes seguir con los datos enviados o, si alguno no es correcto, pedir a la agencia un enlace nuevo.",
    },
    // Strings, not functions: the form is a client component. `{mask}`: what was sent, masked.
    keptValue: "Guardado: {mask}. Déjalo en blanco para mantenerlo.",
    keptHidden: "Guardado (oculto). Déjalo en blanco para mantenerlo.",
    prefillMaskedNotice:
      "Tu agencia nos ha dado algunos de tus datos. Por tu privacidad, mostramos solo una parte de los más sensibles: escribe de nuevo solo lo que quieras cambiar; lo que dejes en blanco se mantiene.",
    maskedNotice:
      "Por tu privacidad, solo mostramos una parte de lo que enviaste. Escribe de nuevo solo lo que quieras cambiar: lo que dejes en blanco se mantiene.",
    sentTitle: "Tus datos ya se enviaron",
    sentBody:
      "Por tu privacidad, los datos enviados no se muestran aquí, y solo se pueden corregir desde el navegador desde el que se enviaron. Si no los enviaste tú, avisa a la agencia.",
    sentLink: "Ver los planes de pago",
    correctionsUsedTitle: "Ya no puedes corregir tus datos",
    correctionsUsedBody:
      "Has corregido tus datos el máximo de veces para este pago. Puedes elegir un plan con los datos enviados o, si alguno no es correcto, pedir a la agencia un enlace nuevo.",
    errors: {
      required: {
        firstName: "Escribe tu nombre",
        lastName: "Escribe tus apellidos",
        email: "Escribe tu correo electrónico",
        prefix: "Escribe el prefijo de tu teléfono, por ejemplo +34",
        phone: "Escribe tu número de teléfono",
        documentType: "Elige el tipo de documento",
        documentId: "Escribe el número de tu documento",
        documentValidityDate: "Escribe la fecha de caducidad de tu documento",
        gender: "Elige tu sexo como figura en tu documento",
        birthDate: "Escribe tu fecha de nacimiento",
        nationality: "Elige tu nacionalidad",
        address: "Escribe tu dirección",
        city: "Escribe tu localidad",
        postalCode: "Escribe tu código postal",
        countryCode: "Elige el país de tu dirección",
      },
      too_long: "Es demasiado largo",
      characters: "Tiene caracteres que no se pueden usar: escríbelo de nuevo",
      email: "Escribe un correo electrónico válido, como nombre@ejemplo.com",
      prefix: "Escribe el prefijo con el signo +, por ejemplo +34",
      phone: "Escribe un teléfono válido: en España, 9 cifras que empiezan por 6, 7, 8 o 9",
      dni: "Un DNI tiene 8 números y una letra, por ejemplo 12345678Z",
      dni_letter: "La letra del DNI no es correcta",
      nie: "Un NIE empieza por X, Y o Z, sigue con 7 números y acaba en una letra, por ejemplo X1234567L",
      nie_letter: "La letra del NIE no es correcta",
      passport: "Un pasaporte tiene entre 5 y 20 letras y números",
      date: {
        birthDate: "Escribe una fecha de nacimiento real",
        documentValidityDate: "Escribe una fecha de caducidad real",
      },
      expired: "Tu documento ha caducado: usa uno en vigor",
      minor: "Tienes que ser mayor de edad para financiar",
      too_old: "Revisa la fecha de nacimiento",
      gender: "Elige Mujer u Hombre",
      country: {
        nationality: "Elige tu nacionalidad de la lista",
        countryCode: "Elige el país de la lista",
      },
      postal_code: "Escribe un código postal válido: en España, 5 cifras",
    } satisfies CustomerErrorMessages,
    correctionNotice:
      "Ya enviamos estos datos a la entidad financiera. Si los cambias, anularemos esa solicitud y enviaremos una nueva con los datos corregidos; después elegirás el plan.",
    expiredTitle: "Este pago ha caducado",
    expiredBody: "Ha pasado el tiempo para completar el pago a plazos. Vuelve a la agencia para empezar de nuevo o pagar de otra forma.",
    revokedTitle: "Este enlace de pago está anulado",
    revokedBody: "La agencia ha anulado este enlace de pago y ya no sirve. Si quieres pagar a plazos, pide a la agencia un enlace nuevo.",
    lockedTitle: "Tus datos ya no se pueden cambiar",
    lockedBody:
      "Ya elegiste un plan y la solicitud está con la entidad financiera, que tiene los datos que enviaste. Si alguno no es correcto, avisa a la agencia.",
  },
  offers: {
    title: "Elige cómo pagar",
    intro: (cash: string) => `Precio al contado: ${cash}. Estos son los planes de pago a plazos que puedes elegir.`,
    warning: "Pedir dinero prestado cuesta dinero.",
    groupHeading: (n: number) => `${n} cuotas mensuales`,
    perMonth: "al mes",
    provider: (company: string) => `Con ${company}`,
    differentFirst: (amount: string) => `La primera cuota es de ${amount}.`,
    differentLast: (amount: string) => `La última cuota es de ${amount}.`,
    tin: "TIN",
    tae: "TAE",
    totalFinanced: "Importe financiado",
    totalInterest: "Intereses",
    costOfCredit: "Coste total del crédito (intereses y comisiones)",
    totalOwed: "Importe total adeudado",
    choose: "Elegir este plan",
    /** The button's words on a phone, where plans share its width; its accessible name stays `chooseLabel`. */
    chooseShort: "Elegir",
    /** The choose button's accessible name: its visible words, then which plan (no space before the colon). */
    chooseLabel: (n: number, company: string) => `Elegir este plan: ${n} cuotas con ${company}`,
    countsHeading: "¿En cuántas cuotas?",
    countsHint: "La cuota mensual más baja de cada plazo.",
    /** An installment count and its lowest monthly installment: "12 × 108,50 €". */
    countOption: (n: number, monthly: string) => `${n} × ${monthly}`,
    /** Under the count: that plan's installment that differs ("primera: 236,61 €"). */
    countDiffering: (first: boolean, amount: string) => `${first ? "primera" : "última"}: ${amount}`,
    comparisonCaption: (financed: string) => `Importe financiado en cada plan: ${financed}`,
    monthly: "Cuota mensual",
    firstInstallment: "Primera cuota",
    lastInstallment: "Última cuota",
    cheapest: "El más barato",
    editDetails: "Corregir mis datos",
    choosing: "Enviando…",
    refusedNotice: "La entidad no ha podido aprobar el plan que elegiste. Puedes elegir uno de estos otros planes.",
    failedNotice: "La entidad no ha podido tramitar el plan que elegiste por un error técnico. Puedes elegir uno de estos otros planes.",
    offerGoneNotice: "El plan que elegiste ya no está disponible. Elige otro.",
    unavailableNotice: "No hemos podido contactar con la entidad financiera. Inténtalo de nuevo.",
    unavailableTitle: "No podemos mostrar los planes ahora",
    unavailableBody: "El servicio de financiación no responde. Espera un momento e inténtalo de nuevo.",
    example: {
      heading: "Ejemplo representativo",
      text: (v: {
        credit: string;
        months: number;
        installments: number;
        quota: string;
        tin: string;
        tae: string;
        owed: string;
        cost: string;
        cash: string;
        company: string;
      }) =>
        `Para un crédito de ${v.credit} a ${v.months} meses, en ${v.installments} cuotas mensuales de ${v.quota}, con un TIN del ${v.tin} y una TAE del ${v.tae}, el importe total adeudado es de ${v.owed} y el coste total del crédito, de ${v.cost}. Precio al contado: ${v.cash}. Financiación ofrecida por ${v.company}.`,
      tin: "TIN",
      tae: "TAE",
      credit: "Importe del crédito",
      duration: "Duración",
      months: (n: number) => `${n} meses`,
      installments: "Cuotas",
      installmentsValue: (n: number, quota: string) => `${n} cuotas mensuales de ${quota}`,
      /** The one installment that differs, after the regular ones: "411,50 € (la primera, 442,36 €)". */
      differing: (quota: string, first: boolean, amount: string) => `${quota} (${first ? "la primera" : "la última"}, ${amount})`,
      owed: "Importe total adeudado",
      cost: "Coste total del crédito",
      cash: "Precio al contado",
      lender: "Entidad",
    },
  },
  status: {
    title: "Estado de tu financiación",
    checking: "Comprobando el estado…",
    checkFailed: "No hemos podido comprobar el estado. Lo volveremos a intentar.",
    continueForm: "Completar mis datos",
    continueOffers: "Elegir un plan",
    continueProvider: "Ir a la entidad para firmar",
    yourPlan: "Tu plan",
    next: "Qué pasa ahora",
    states: {
      open: { title: "Aún no has enviado tus datos", body: "Para pagar a plazos, primero necesitamos tus datos." },
      choosing: { title: "Elige tu plan de pago", body: "Tus datos están enviados. Ahora elige cómo quieres pagar." },
      pending: {
        title: "Esperando a la entidad financiera",
        body: "Si aún no has firmado, hazlo en la página de la entidad. Si ya has firmado, la entidad está estudiando tu solicitud: suele tardar poco, esta página se actualiza sola y también puedes comprobarlo de nuevo.",
      },
      approved: {
        title: "Financiación aprobada",
        body: "La entidad ha aprobado tu financiación. Tu agencia recibirá la confirmación y completará tu reserva.",
      },
      confirmed: {
        title: "Financiación confirmada",
        body: "Tu viaje está pagado a plazos. La entidad te enviará el contrato y el calendario de pagos, y tu agencia completará tu reserva.",
      },
      not_eligible: {
        title: "No podemos ofrecerte financiación",
        body: "Ninguna entidad financiera puede financiar este viaje con los datos enviados. No se te ha cobrado nada. Puedes volver a la agencia y pagarlo de otra forma.",
      },
      refused: {
        title: "La entidad no ha aprobado la financiación",
        body: "No ha sido posible financiar este viaje. No se te ha cobrado nada. Puedes volver a la agencia y pagar de otra forma.",
      },
      error: {
        title: "No hemos podido completar la financiación",
        body: "Ha habido un problema técnico al pedir la financiación. No se te ha cobrado nada. Puedes volver a la agencia y pagar de otra forma.",
      },
      cancelled: {
        title: "La financiación se ha cancelado",
        body: "Este pago a plazos se ha cancelado. No se te ha cobrado nada. Puedes volver a la agencia y pagar de otra forma.",
      },
      expired: {
        title: "Este pago ha caducado",
        body: "Ha pasado el tiempo para completar el pago a plazos. Puedes volver a la agencia y pagar de otra forma.",
      },
      refunded: {
        title: "La financiación se ha devuelto",
        body: "Tu reserva se canceló y la financiación se ha devuelto. Si tienes dudas, habla con tu agencia.",
      },
    } satisfies Record<SessionState, StateText>,
  },
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
  form: {
    title: "Your details",
    intro: "The finance provider needs these details to assess your application. Every field is required.",
    privacy: "We only use them to arrange the financing with the finance provider.",
    legends: {
      personal: "About you",
      contact: "Contact",
      document: "Identity document",
      address: "Your address",
    },
    labels: {
      firstName: "First name",
      lastName: "Last name",
      email: "E-mail",
      prefix: "Country code",
      phone: "Mobile phone",
      documentType: "Document type",
      documentId: "Document number",
      documentValidityDate: "Document expiry date",
      gender: "Sex (as on your document)",
      birthDate: "Date of birth",
      nationality: "Nationality",
      address: "Address (street, number, floor)",
      city: "Town or city",
      postalCode: "Postcode",
      countryCode: "Country",
    },
    hints: {
      prefix: "E.g. +34",
      phone: "Without the country code",
      documentId: "DNI: 8 digits and a letter. NIE: X, Y or Z, 7 digits and a letter.",
      birthDate: "You must be an adult.",
    },
    documentTypes: { DNI: "DNI", NIE: "NIE", PASSPORT: "Passport" },
    genders: { FEMALE: "Female", MALE: "Male" },
    chooseCountry: "Choose a country",
    submit: "Continue",
    submitting: "Sending…",
    summaryTitle: "Check these details",
    errorPrefix: "Error:",
    failures: {
      unavailable: "The financing service is not answering right now. Your details are saved: try again in a moment.",
      agency_unavailable: "This agency does not offer installments at the moment: nothing was saved.",
      expired: "This payment has expired. Go back to the agency to start again.",
      closed: "This payment can no longer be changed.",
      closedLink: "See the payment's status",
      invalid: "We could not read some of the details. Check them and send them again.",
      not_editor:
        "The details of this payment were already sent from another browser or device, and only that one can correct them. If you did not send them, tell the agency.",
      too_many_corrections:
        "You have already corrected your details the most times allowed. You can go on with the details sent or, if any is wrong, ask the agency for a new link.",
    },
    keptValue: "Saved: {mask}. Leave it blank to keep it.",
    keptHidden: "Saved (hidden). Leave it blank to keep it.",
    prefillMaskedNotice:
      "Your agency gave us some of your details. For your privacy, we show only part of the most sensitive ones: type again only what you want to change; what you leave blank is kept.",
    maskedNotice:
      "For your privacy, we show only part of what you sent. Type again only what you want to change: what you leave blank is kept.",
    sentTitle: "Your details have been sent",
    sentBody:
      "For your privacy, the details sent are not shown here, and they can be corrected only from the browser they were sent from. If you did not send them, tell the agency.",
    sentLink: "See the payment plans",
    correctionsUsedTitle: "You can no longer correct your details",
    correctionsUsedBody:
      "You have corrected your details the most times allowed for this payment. You can choose a plan with the details sent or, if any is wrong, ask the agency for a new link.",
    errors: {
      required: {
        firstName: "Enter your first name",
        lastName: "Enter your last name",
        email: "Enter your e-mail address",
        prefix: "Enter your phone's country code, for example +34",
        phone: "Enter your phone number",
        documentType: "Choose the document type",
        documentId: "Enter your document number",
        documentValidityDate: "Enter your document's expiry date",
        gender: "Choose your sex as on your document",
        birthDate: "Enter your date of birth",
        nationality: "Choose your nationality",
        address: "Enter your address",
        city: "Enter your town or city",
        postalCode: "Enter your postcode",
        countryCode: "Choose the country of your address",
      },
      too_long: "This is too long",
      characters: "This has characters that cannot be used: type it again",
      email: "Enter a valid e-mail address, like name@example.com",
      prefix: "Enter the country code with a + sign, for example +34",
      phone: "Enter a valid phone number: in Spain, 9 digits starting with 6, 7, 8 or 9",
      dni: "A DNI has 8 digits and a letter, for example 12345678Z",
      dni_letter: "The DNI letter is not right",
      nie: "A NIE starts with X, Y or Z, then 7 digits and a letter, for example X1234567L",
      nie_letter: "The NIE letter is not right",
      passport: "A passport number has 5 to 20 letters and digits",
      date: {
        birthDate: "Enter a real date of birth",
        documentValidityDate: "Enter a real expiry date",
      },
      expired: "Your document has expired: use one that is still valid",
      minor: "You must be 18 or over to get financing",
      too_old: "Check your date of birth",
      gender: "Choose Female or Male",
      country: {
        nationality: "Choose your nationality from the list",
        countryCode: "Choose the country from the list",
      },
      postal_code: "Enter a valid postcode: in Spain, 5 digits",
    },
    correctionNotice:
      "We have already sent these details to the finance provider. If you change them, we will cancel that request and send a new one with the corrected details; then you choose the plan.",
    expiredTitle: "This payment has expired",
    expiredBody: "The time to complete the installment payment has passed. Go back to the agency to start again or to pay another way.",
    revokedTitle: "This payment link was revoked",
    revokedBody: "The agency revoked this payment link and it no longer works. To pay in installments, ask the agency for a new link.",
    lockedTitle: "Your details can no longer be changed",
    lockedBody:
      "You have chosen a plan and the request is with the finance provider, which has the details you sent. If any of them is wrong, tell the agency.",
  },
  offers: {
    title: "Choose how to pay",
    intro: (cash) => `Cash price: ${cash}. These are the installment plans you can choose from.`,
    warning: "Borrowing money costs money.",
    groupHeading: (n) => `${n} monthly installments`,
    perMonth: "a month",
    provider: (company) => `With ${company}`,
    differentFirst: (amount) => `The first installment is ${amount}.`,
    differentLast: (amount) => `The last installment is ${amount}.`,
    tin: "Nominal rate (TIN)",
    tae: "APR (TAE)",
    totalFinanced: "Amount financed",
    totalInterest: "Interest",
    costOfCredit: "Total cost of credit (interest and fees)",
    totalOwed: "Total amount owed",
    choose: "Choose this plan",
    chooseShort: "Choose",
    chooseLabel: (n, company) => `Choose this plan: ${n} installments with ${company}`,
    countsHeading: "How many installments?",
    countsHint: "The lowest monthly installment for each term.",
    countOption: (n, monthly) => `${n} × ${monthly}`,
    countDiffering: (first, amount) => `${first ? "first" : "last"}: ${amount}`,
    comparisonCaption: (financed) => `Amount financed in every plan: ${financed}`,
    monthly: "Monthly installment",
    firstInstallment: "First installment",
    lastInstallment: "Last installment",
    cheapest: "Cheapest",
    editDetails: "Correct my details",
    choosing: "Sending…",
    refusedNotice: "The provider could not approve the plan you chose. You can choose one of these other plans.",
    failedNotice:
      "The provider could not process the plan you chose because of a technical error. You can choose one of these other plans.",
    offerGoneNotice: "The plan you chose is no longer available. Please choose another.",
    unavailableNotice: "We could not reach the finance provider. Please try again.",
    unavailableTitle: "We cannot show the plans right now",
    unavailableBody: "The financing service is not answering. Wait a moment and try again.",
    example: {
      heading: "Representative example",
      text: (v) =>
        `For credit of ${v.credit} over ${v.months} months, in ${v.installments} monthly installments of ${v.quota}, at a nominal rate (TIN) of ${v.tin} and an APR (TAE) of ${v.tae}, the total amount owed is ${v.owed} and the total cost of credit is ${v.cost}. Cash price: ${v.cash}. Financing provided by ${v.company}.`,
      tin: "Nominal rate (TIN)",
      tae: "APR (TAE)",
      credit: "Amount of credit",
      duration: "Duration",
      months: (n) => `${n} months`,
      installments: "Installments",
      installmentsValue: (n, quota) => `${n} monthly installments of ${quota}`,
      differing: (quota, first, amount) => `${quota} (the ${first ? "first" : "last"} one ${amount})`,
      owed: "Total amount owed",
      cost: "Total cost of credit",
      cash: "Cash price",
      lender: "Provider",
    },
  },
  status: {
    title: "Your financing status",
    checking: "Checking the status…",
    checkFailed: "We could not check the status. We will try again.",
    continueForm: "Fill in my details",
    continueOffers: "Choose a plan",
    continueProvider: "Go to the provider to sign",
    yourPlan: "Your plan",
    next: "What happens next",
    states: {
      open: { title: "You have not sent your details yet", body: "To pay in installments, we first need your details." },
      choosing: { title: "Choose your payment plan", body: "Your details are sent. Now choose how you want to pay." },
      pending: {
        title: "Waiting for the finance provider",
        body: "If you have not signed yet, do so on the provider's page. If you have, the provider is assessing your application: it usually takes a moment, this page updates itself and you can also check again.",
      },
      approved: {
        title: "Financing approved",
        body: "The provider has approved your financing. Your agency will get the confirmation and complete your booking.",
      },
      confirmed: {
        title: "Financing confirmed",
        body: "Your trip is paid in installments. The provider will send you the contract and the payment schedule, and your agency will complete your booking.",
      },
      not_eligible: {
        title: "We cannot offer you financing",
        body: "No finance provider can finance this trip with the details sent. You have not been charged. You can go back to the agency and pay another way.",
      },
      refused: {
        title: "The provider did not approve the financing",
        body: "It was not possible to finance this trip. You have not been charged. You can go back to the agency and pay another way.",
      },
      error: {
        title: "We could not complete the financing",
        body: "There was a technical problem when requesting the financing. You have not been charged. You can go back to the agency and pay another way.",
      },
      cancelled: {
        title: "The financing was cancelled",
        body: "This installment payment was cancelled. You have not been charged. You can go back to the agency and pay another way.",
      },
      expired: {
        title: "This payment has expired",
        body: "The time to complete the installment payment has passed. You can go back to the agency and pay another way.",
      },
      refunded: {
        title: "The financing was refunded",
        body: "Your booking was cancelled and the financing refunded. If you have questions, contact your agency.",
      },
    },
  },
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

export type FormMessages = Messages["form"];
