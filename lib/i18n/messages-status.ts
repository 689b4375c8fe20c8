import type { SessionState } from "@/lib/vocabulary/session";

/** The status page's strings (a session's state after the offers), in Spanish and English; part of `MESSAGES` (./messages.ts). */

export interface StateText {
  /** What happened, as the page's heading. */
  title: string;
  /** What it means, in a sentence or two. */
  body: string;
}

export const statusEs = {
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
};

export const statusEn: typeof statusEs = {
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
};
