import type { OperationStatus } from "@/lib/financing/contract";

/**
 * The hosted pages' words, in Spanish (the customers') and English. The sandbox is a system of its
 * own: it keeps its texts here, not in the app's catalogue. Figures are printed the Spanish way in
 * both languages ("1.234,50 €"), as a Spanish provider does (`format.ts`).
 */

export const PAGE_LANGUAGES = ["es", "en"] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];
/** Without a `lang` parameter or an Accept-Language naming one of ours: the customers are Spanish. */
export const DEFAULT_PAGE_LANGUAGE: PageLanguage = "es";

type Tone = "success" | "failure" | "info";

export interface PageText {
  /** The language's own name, for the switch to it. */
  name: string;
  layout: { titleSuffix: string; sandboxLabel: string; sandboxNotice: string; providerSubtitle: string };
  status: Record<OperationStatus, { heading: string; explanation: string; tone: Tone }>;
  trip: {
    heading: string;
    trip: string;
    price: string;
    travellers: string;
    customer: string;
    booking: string;
    operation: string;
    plan: string;
    defaultName: string;
  };
  /** A plan in one line: what every installment costs, the one that differs included. */
  plan: (options: { count: number; regular: string; differing?: { first: boolean; amount: string } }) => string;
  financing: {
    title: string;
    plans: string;
    smallPrint: string;
    continue: string;
    chooseOne: string;
    notAvailable: string;
    providerRefused: (what: string) => string;
    providerError: (what: string) => string;
    /** The plan refused, in the alerts above. */
    installments: (count: number) => string;
    thatPlan: string;
  };
  facts: {
    regular: string;
    differs: (first: boolean) => string;
    tin: string;
    tae: string;
    financed: string;
    interest: string;
    openingFee: string;
    totalOwed: string;
    installments: string;
  };
  unavailable: { title: string; notEligible: string; noOffers: string; payAnotherWay: string; resultExplanation: string };
  checkout: {
    title: (company: string) => string;
    heading: string;
    otherProviders: (refused: string, company: string, count: number) => string;
    applicant: string;
    consent: (company: string) => string;
    sign: string;
    decline: string;
  };
  schedule: {
    caption: string;
    month: string;
    amount: string;
    monthN: (month: number) => string;
    differs: string;
    why: (month: number, reasons: { fee?: string; rounding?: { amount: string; more: boolean } }) => string;
  };
  result: { statusLabel: string; summary: string };
  links: {
    choosePlan: string;
    continueAt: (company: string) => string;
    returnToShop: string;
    continueWithout: string;
    returnToPayAnotherWay: string;
  };
  errors: {
    invalidLink: { title: string; message: string };
    notFound: { title: string; message: string };
    conflict: string;
    failed: string;
    detail: (code: string, status: number) => string;
    unexpected: { title: string; message: string };
  };
}

const es: PageText = {
  name: "Español",
  layout: {
    titleSuffix: "Sandbox",
    sandboxLabel: "Sandbox",
    sandboxNotice: "Entorno de pruebas de la entidad de financiación: ni entidad real ni dinero real.",
    providerSubtitle: "Pago en la entidad (simulado)",
  },
  status: {
    GENERATED: { heading: "Financiación sin empezar", explanation: "Aún no se ha elegido ningún plan.", tone: "info" },
    PENDING: {
      heading: "Financiación sin terminar",
      explanation: "Aún no se ha elegido ningún plan. Todavía puedes elegir uno.",
      tone: "info",
    },
    CLIENT_REQUESTED: {
      heading: "Plan elegido: falta la firma",
      explanation: "La entidad aceptó la solicitud y espera a que revises y firmes el plan.",
      tone: "info",
    },
    PENDING_RESPONSE: {
      heading: "Esperando a la entidad",
      explanation: "Has firmado el plan y la entidad lo está estudiando. La tienda te dirá el resultado.",
      tone: "info",
    },
    FAVORABLE: {
      heading: "Financiación aprobada",
      explanation: "La entidad aprobó la financiación; se está confirmando.",
      tone: "success",
    },
    CONFIRMED: {
      heading: "Financiación confirmada",
      explanation: "La entidad aprobó tu financiación y ya está activa. La tienda confirmará tu reserva.",
      tone: "success",
    },
    REFUSED: {
      heading: "Financiación denegada",
      explanation: "La financiación no se aprobó, así que no se cobrará ninguna cuota. Puedes pagar el viaje de otra forma en la tienda.",
      tone: "failure",
    },
    REFUNDED: {
      heading: "Financiación reembolsada",
      explanation: "Esta financiación se confirmó y después se reembolsó a través de la entidad.",
      tone: "info",
    },
    CANCELLED: {
      heading: "Financiación cancelada",
      explanation: "La tienda canceló esta financiación antes de que se firmara. No se cobrará nada.",
      tone: "failure",
    },
    EXPIRED: {
      heading: "El enlace de financiación ha caducado",
      explanation: "Se acabó el tiempo para completar esta financiación. No se cobrará nada. Empieza de nuevo desde la tienda.",
      tone: "failure",
    },
    ERROR: {
      heading: "No se pudo completar la financiación",
      explanation: "Un error técnico detuvo la financiación. No se cobrará nada. Inténtalo más tarde o paga de otra forma en la tienda.",
      tone: "failure",
    },
    FINISHED: { heading: "Financiación terminada", explanation: "Esta financiación está completa: el viaje ya se hizo.", tone: "info" },
  },
  trip: {
    heading: "Tu viaje",
    trip: "Viaje",
    price: "Precio",
    travellers: "Viajeros",
    customer: "Cliente",
    booking: "Reserva",
    operation: "Operación",
    plan: "Plan",
    defaultName: "Paquete de viaje",
  },
  plan: ({ count, regular, differing }) => {
    const head = `${count === 1 ? "1 cuota mensual" : `${count} cuotas mensuales`} de ${regular}`;
    return differing === undefined ? head : `${head} (${differing.first ? "primera" : "última"} cuota ${differing.amount})`;
  },
  financing: {
    title: "Elige tu plan de pago a plazos",
    plans: "Planes de pago a plazos",
    smallPrint:
      "TIN: tipo de interés nominal. TAE: tasa anual equivalente, con comisiones. Pedir dinero prestado cuesta dinero: comprueba que puedes pagar las cuotas. La entidad que elijas estudiará tu solicitud a continuación.",
    continue: "Continuar en la entidad",
    chooseOne: "Elige uno de los planes para continuar.",
    notAvailable: "Ese plan no está disponible. Elige uno de los planes de abajo.",
    providerRefused: (what) => `La entidad no pudo aprobar ${what}; elige otro plan.`,
    providerError: (what) => `La entidad tuvo un error técnico con ${what}; elige otro plan.`,
    installments: (count) => `el plan de ${count} cuotas`,
    thatPlan: "ese plan",
  },
  facts: {
    regular: "Cuota habitual",
    differs: (first) => `${first ? "Primera" : "Última"} cuota (distinta)`,
    tin: "TIN",
    tae: "TAE",
    financed: "Total financiado",
    interest: "Intereses",
    openingFee: "Comisión de apertura",
    totalOwed: "Total a pagar",
    installments: "Cuotas",
  },
  unavailable: {
    title: "Financiación no disponible",
    notEligible: "La financiación no está disponible para esta reserva: las entidades no pueden ofrecerte un plan. No se ha cobrado nada.",
    noOffers: "Ninguna entidad ofrece un plan para este importe. No se ha cobrado nada.",
    payAnotherWay: "Puedes pagar el viaje de otra forma en la tienda.",
    resultExplanation:
      "La financiación no está disponible para esta reserva. No se ha cobrado nada; puedes pagar de otra forma en la tienda.",
  },
  checkout: {
    title: (company) => `Revisa y firma: ${company}`,
    heading: "Revisa y firma tu plan",
    otherProviders: (refused, company, count) =>
      `${refused} no pudo aprobar tu solicitud. ${company} la aceptó con las mismas ${count} cuotas, en sus propias condiciones: revísalas abajo antes de firmar.`,
    applicant: "Solicitante",
    consent: (company) => `Al firmar aceptas el plan de arriba con ${company}. Pedir dinero prestado cuesta dinero.`,
    sign: "Firmar y aceptar",
    decline: "Rechazar",
  },
  schedule: {
    caption: "Calendario de pagos",
    month: "Mes",
    amount: "Importe",
    monthN: (month) => `Mes ${month}`,
    differs: "distinta",
    why: (month, { fee, rounding }) => {
      const parts = [
        ...(fee === undefined ? [] : [`incluye la comisión de apertura de ${fee}`]),
        ...(rounding === undefined ? [] : [`${rounding.amount} ${rounding.more ? "más" : "menos"} por redondeo`]),
      ];
      return `La cuota del mes ${month} es distinta de las demás: ${parts.join(" y ")}.`;
    },
  },
  result: { statusLabel: "Estado", summary: "Resumen" },
  links: {
    choosePlan: "Elegir un plan",
    continueAt: (company) => `Continuar en ${company}`,
    returnToShop: "Volver a la tienda",
    continueWithout: "Continuar sin financiación",
    returnToPayAnotherWay: "Volver a la tienda para pagar de otra forma",
  },
  errors: {
    invalidLink: {
      title: "Este enlace no es válido",
      message:
        "El enlace de financiación no es válido o está incompleto: comprueba que lo copiaste entero, o empieza de nuevo desde la tienda. No se ha cobrado nada.",
    },
    notFound: { title: "Página no encontrada", message: "No hay ninguna página del sandbox en esta dirección." },
    conflict: "Este paso ya está hecho",
    failed: "No se pudo completar la solicitud",
    detail: (code, status) => `Código de error: ${code} (HTTP ${status})`,
    unexpected: { title: "Algo ha fallado", message: "El sandbox tuvo un error inesperado. No se ha cobrado nada." },
  },
};

const en: PageText = {
  name: "English",
  layout: {
    titleSuffix: "Sandbox",
    sandboxLabel: "Sandbox",
    sandboxNotice: "Test environment of the financing partner: no real provider, no real money.",
    providerSubtitle: "Provider checkout (simulated)",
  },
  status: {
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
    FAVORABLE: {
      heading: "Financing approved",
      explanation: "The provider approved the financing; it is being confirmed.",
      tone: "success",
    },
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
  },
  trip: {
    heading: "Your trip",
    trip: "Trip",
    price: "Price",
    travellers: "Travellers",
    customer: "Customer",
    booking: "Booking",
    operation: "Operation",
    plan: "Plan",
    defaultName: "Trip package",
  },
  plan: ({ count, regular, differing }) => {
    const head = `${count === 1 ? "1 monthly installment" : `${count} monthly installments`} of ${regular}`;
    return differing === undefined ? head : `${head} (${differing.first ? "first" : "last"} installment ${differing.amount})`;
  },
  financing: {
    title: "Choose your installment plan",
    plans: "Installment plans",
    smallPrint:
      "TIN: nominal interest rate. TAE: annual percentage rate, fees included. Borrowing money costs money: check that you can afford the installments. The provider you choose reviews your request next.",
    continue: "Continue to the provider",
    chooseOne: "Choose one of the plans to continue.",
    notAvailable: "That plan is not available. Choose one of the plans below.",
    providerRefused: (what) => `The provider could not approve ${what}; choose another plan.`,
    providerError: (what) => `The provider had a technical error with ${what}; choose another plan.`,
    installments: (count) => `${count} installments`,
    thatPlan: "that plan",
  },
  facts: {
    regular: "Regular installment",
    differs: (first) => `${first ? "First" : "Last"} installment (differs)`,
    tin: "TIN",
    tae: "TAE",
    financed: "Total financed",
    interest: "Interest",
    openingFee: "Opening fee",
    totalOwed: "Total owed",
    installments: "Installments",
  },
  unavailable: {
    title: "Financing not available",
    notEligible: "Financing is not available for this booking: the providers cannot offer you a plan. Nothing has been charged.",
    noOffers: "No provider offers a plan for this amount. Nothing has been charged.",
    payAnotherWay: "You can pay for the trip another way at the shop.",
    resultExplanation: "Financing is not available for this booking. Nothing has been charged; you can pay another way at the shop.",
  },
  checkout: {
    title: (company) => `Review and sign: ${company}`,
    heading: "Review and sign your plan",
    otherProviders: (refused, company, count) =>
      `${refused} could not approve your request. ${company} accepted it for the same ${count} installments, on its own terms: review them below before signing.`,
    applicant: "Applicant",
    consent: (company) => `By signing you accept the plan above with ${company}. Borrowing money costs money.`,
    sign: "Sign and accept",
    decline: "Decline",
  },
  schedule: {
    caption: "Payment schedule",
    month: "Month",
    amount: "Amount",
    monthN: (month) => `Month ${month}`,
    differs: "differs",
    why: (month, { fee, rounding }) => {
      const parts = [
        ...(fee === undefined ? [] : [`it includes the opening fee of ${fee}`]),
        ...(rounding === undefined ? [] : [`${rounding.amount} ${rounding.more ? "more" : "less"} for rounding`]),
      ];
      return `Month ${month} differs from the others: ${parts.join(" and ")}.`;
    },
  },
  result: { statusLabel: "Status", summary: "Summary" },
  links: {
    choosePlan: "Choose a plan",
    continueAt: (company) => `Continue at ${company}`,
    returnToShop: "Return to the shop",
    continueWithout: "Continue without financing",
    returnToPayAnotherWay: "Return to the shop to pay another way",
  },
  errors: {
    invalidLink: {
      title: "This link is not valid",
      message:
        "The financing link is invalid or incomplete: check that it was copied whole, or start again from the shop. Nothing has been charged.",
    },
    notFound: { title: "Page not found", message: "There is no sandbox page at this address." },
    conflict: "This step is already done",
    failed: "The request could not be completed",
    detail: (code, status) => `Error code: ${code} (HTTP ${status})`,
    unexpected: { title: "Something went wrong", message: "The sandbox hit an unexpected error. Nothing has been charged." },
  },
};

export const PAGE_TEXT: Record<PageLanguage, PageText> = { es, en };
