import type { CustomerField } from "@/lib/checkout/session/customer";

/**
 * The customer details step's strings (form, field errors), in Spanish and English; part of
 * `MESSAGES` (./messages.ts). Handed to a client component, so strings only: functions cannot cross
 * the server/client boundary.
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

export const formEs = {
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
    erased:
      "Los datos de este pago se han borrado: ya no se pueden enviar ni corregir. Si quieres pagar a plazos, pide a la agencia un enlace nuevo.",
  },
  // Strings, not functions: the form is a client component. `{mask}`: what was sent, masked.
  keptValue: "Guardado: {mask}. Déjalo en blanco para mantenerlo.",
  keptHidden: "Guardado (oculto). Déjalo en blanco para mantenerlo.",
  prefillMaskedNotice:
    "Tu agencia nos ha dado algunos de tus datos. Por tu privacidad, mostramos solo una parte de los más sensibles: escribe de nuevo solo lo que quieras cambiar; lo que dejes en blanco se mantiene.",
  maskedNotice:
    "Por tu privacidad, solo mostramos una parte de lo que enviaste. Escribe de nuevo solo lo que quieras cambiar: lo que dejes en blanco se mantiene.",
  erasedTitle: "Tus datos se han borrado",
  erasedBody:
    "Por tu privacidad, los datos de este pago se han borrado: ya no se pueden ver ni corregir. Si quieres pagar a plazos, pide a la agencia un enlace nuevo.",
  unreadableTitle: "Tus datos no están disponibles",
  unreadableBody: "Ahora mismo no podemos mostrar los datos de este pago. Avisa a la agencia.",
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
};

export type FormMessages = typeof formEs;

export const formEn: FormMessages = {
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
    erased:
      "The details of this payment have been erased: they can no longer be sent or corrected. To pay in installments, ask the agency for a new link.",
  },
  keptValue: "Saved: {mask}. Leave it blank to keep it.",
  keptHidden: "Saved (hidden). Leave it blank to keep it.",
  prefillMaskedNotice:
    "Your agency gave us some of your details. For your privacy, we show only part of the most sensitive ones: type again only what you want to change; what you leave blank is kept.",
  maskedNotice:
    "For your privacy, we show only part of what you sent. Type again only what you want to change: what you leave blank is kept.",
  erasedTitle: "Your details have been erased",
  erasedBody:
    "For your privacy, the details of this payment have been erased: they can no longer be seen or corrected. To pay in installments, ask the agency for a new link.",
  unreadableTitle: "Your details are not available",
  unreadableBody: "We cannot show the details of this payment right now. Tell the agency.",
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
};
