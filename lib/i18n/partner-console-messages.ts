import type { Locale } from "./locales";
import { apiSecrets } from "./partner-console/api-secrets";

/**
 * The strings of the platform operator's partner pages (`/operator/partners`) and of the API secrets
 * panel a partner's administrators see too (`/admin/settings/api-secrets`), in Spanish (the source)
 * and English. `en` is typed by `es`. Strings only, with `{placeholders}` the components fill in:
 * most of them are handed to client components.
 */

const es = {
  meta: {
    partners: "Socios",
    newPartner: "Nuevo socio",
    apiSecrets: "Secretos de la API",
  },
  common: {
    errorPrefix: "Error:",
    saving: "Guardando…",
    copy: "Copiar",
    copied: "Copiado",
    none: "—",
    notFound: "Ese socio no existe.",
  },
  list: {
    title: "Socios",
    intro:
      "Las agencias y grupos que usan el checkout. Cada socio tiene su clave de la API de financiación, sus orígenes, sus agencias y sus secretos de la API de sesiones de pago.",
    create: "Crear un socio",
    none: "Todavía no hay ningún socio.",
    caption: "Socios, por nombre",
    columns: {
      name: "Nombre",
      id: "Identificador",
      state: "Estado",
      credential: "Clave de financiación",
      secrets: "Secretos activos",
      agencies: "Agencias",
      staff: "Personal",
    },
  },
  states: { active: "Activo", disabled: "Desactivado" },
  credentials: {
    deployment: "La de la plataforma",
    deploymentAgency: "La de la plataforma · agencia {agency}",
    agency: "Clave de agencia ····{last4}",
    group: "Clave de grupo ····{last4} · agencia {agency}",
  },
  create: {
    title: "Nuevo socio",
    intro: "Empieza con su identificador y su nombre; el resto (clave, orígenes, agencias, secretos) se configura en su página.",
    id: "Identificador",
    idHint: "De 3 a 40 minúsculas, cifras y guiones (por ejemplo viajes-acme). No se puede cambiar después.",
    name: "Nombre",
    nameHint: "Como lo verán sus clientes en el checkout.",
    submit: "Crear el socio",
    summaryTitle: "Revisa estos datos",
    errors: {
      invalid: "El identificador solo puede llevar de 3 a 40 minúsculas, cifras y guiones, sin guion al principio ni al final.",
      reserved: "Ese identificador está reservado.",
      taken: "Ya hay un socio con ese identificador.",
      missing: "Escribe el nombre.",
      too_long: "El nombre tiene como máximo 100 caracteres.",
      characters: "El nombre lleva caracteres no válidos.",
    },
  },
  detail: {
    back: "Todos los socios",
    idLabel: "Identificador: {id}",
    notices: {
      created: "Socio creado. Configura ahora su clave, sus orígenes y sus secretos.",
      disabled: "Socio desactivado: sus secretos responden 401 y sus clientes ven que el pago no está disponible.",
      enabled: "Socio activado de nuevo.",
      agencies: "Agencias guardadas.",
      agenciesInvalid: "Las agencias son números enteros positivos (como máximo 50), separados por comas o espacios.",
    },
    disabledBanner: "Este socio está desactivado desde el {since}.",
  },
  settings: {
    title: "Datos del socio",
    name: "Nombre",
    origins: "Orígenes permitidos",
    originsHint:
      "Uno por línea, como https://tienda.agencia.example: a ellos puede volver el cliente y desde ellos se puede insertar el checkout.",
    returnUrl: "Dirección de vuelta por defecto",
    returnUrlHint: "Adonde vuelve el cliente de un enlace de pago; en uno de los orígenes permitidos. Vacía: no se abren enlaces de pago.",
    submit: "Guardar los datos",
    saved: "Datos guardados.",
    errors: {
      missing: "Escribe el nombre.",
      too_long: "Es demasiado largo.",
      characters: "Lleva caracteres no válidos.",
      invalid_origin: "La línea {line} no es un origen (esquema, servidor y puerto, sin ruta).",
      host: "La línea {line} no tiene un nombre de servidor ni una dirección IP: sin comodines (*), sin punto final y sin guiones bajos.",
      https_only: "La línea {line} no es https: con la API de financiación de producción, solo https.",
      too_many: "Como máximo 20 orígenes.",
      invalid_url: "Escribe una dirección completa, como https://agencia.example/reserva/hecha.",
      not_allowed_origin: "La dirección tiene que estar en uno de los orígenes permitidos.",
    },
  },
  notifications: {
    title: "Avisos al sistema del socio",
    intro: "Adonde se envían los avisos firmados de cada cambio de estado. El secreto de firma lo rota el personal del socio.",
    saved: "Dirección guardada.",
    notFound: "Ese socio no existe.",
  },
  retention: {
    title: "Conservación de los datos de los clientes",
    intro:
      "Los días que se guardan los datos personales de un cliente una vez terminada su sesión (o caducada sin terminar). Pasado ese plazo se borran y se avisa al socio; la sesión, sus importes y estados se conservan.",
    label: "Días de conservación",
    hint: "Entre 1 y {max} días (el máximo de la plataforma).",
    save: "Guardar el plazo",
    saved: "Plazo guardado.",
    notFound: "Ese socio no existe.",
    errors: { invalid: "Escribe un número entero de días, 1 o más.", over_ceiling: "Como mucho {max} días, el máximo de la plataforma." },
  },
  credential: {
    title: "Clave de la API de financiación",
    intro:
      "Se comprueba en directo con la API antes de guardarla, se guarda cifrada y no se vuelve a mostrar: solo sus cuatro últimos caracteres.",
    current: "Ahora: {credential}",
    kind: "Tipo de clave",
    kinds: {
      agency: "Clave de agencia",
      group: "Clave de grupo (con una agencia)",
      deployment: "La clave de la plataforma",
    },
    key: "Clave",
    keyHint: "Empieza por {prefix}. Se comprueba con GET /health (agencia) o GET /agencies (grupo).",
    submit: "Comprobar y guardar",
    verifying: "Comprobando…",
    saved: "Clave comprobada y guardada.",
    pickAgency: "La clave llega a estas agencias: elige por cuál actúa este socio.",
    agency: "Agencia",
    agencyOption: "{name} ({id})",
    saveAgency: "Guardar con esta agencia",
    errors: {
      malformed: "Eso no es una clave de la API de financiación (empieza por fk_test_ o fk_live_).",
      wrong_environment: "Esta plataforma usa la API de financiación con claves {prefix}: esa clave es de la otra. No se ha enviado.",
      refused: "La API de financiación no acepta la clave: {reason}",
      unreachable: "La API de financiación no responde ahora mismo ({reason}). No se ha guardado nada: inténtalo de nuevo.",
      no_agencies: "Esa clave de grupo no llega a ninguna agencia activa.",
      agency_not_reached: "La clave no llega a esa agencia.",
      pending_expired: "Ha pasado demasiado tiempo: escribe la clave de nuevo.",
      not_found: "Ese socio no existe.",
      invalid: "Revisa el formulario.",
    },
  },
  agencies: {
    title: "Agencias que ve su personal",
    intro:
      "Las operaciones de estas agencias son del socio en el back-office, además de las de sus propias sesiones. Que la clave llegue a una agencia no basta: se asigna aquí.",
    current: "Ahora: {agencies}",
    noneAssigned: "ninguna (su personal ve solo las operaciones de sus propias sesiones)",
    field: "Agencias (números, separados por comas)",
    submit: "Guardar las agencias",
    reachable: "Agencias a las que llega su clave",
    reachableNone: "Con una clave de agencia no hay lista que mostrar: escribe su número si lo conoces.",
    reachableUnavailable: "No hemos podido preguntar a la API por las agencias de la clave ahora mismo.",
    columns: { id: "Número", name: "Nombre", city: "Ciudad" },
  },
  state: {
    title: "Estado",
    activeText:
      "Activo. Al desactivarlo, sus secretos de la API responden 401 al momento y sus clientes ven que el pago no está disponible. Nada se borra.",
    disabledText: "Desactivado. Al activarlo de nuevo, todo vuelve a funcionar como estaba.",
    disable: "Desactivar el socio",
    /** What disabling does, said before it is done (the button that disables is under it). */
    disableConsequence:
      "Al desactivar {name}, sus secretos de la API responden 401 al momento, sus clientes ven que el pago no está disponible y su personal no puede entrar. Nada se borra: al activarlo de nuevo, todo vuelve a funcionar.",
    disableConfirm: "Desactivar ya",
    enable: "Activar el socio",
  },
  admin: {
    title: "Primer administrador",
    intro: "Crea la cuenta de quien administrará el socio. El enlace de un solo uso se muestra una vez: entrégaselo por un canal seguro.",
    staffCount: "Personal del socio: {n}",
    email: "Correo electrónico",
    name: "Nombre",
    submit: "Crear la cuenta y el enlace",
    linkTitle: "Enlace de un solo uso",
    linkIntro: "Cópialo ahora: no se volverá a mostrar. Con él se pone la contraseña y la verificación en dos pasos.",
    errors: {
      invalid_email: "Escribe un correo electrónico válido.",
      invalid_name: "Escribe el nombre (como máximo 100 caracteres).",
      email_taken: "Ya hay una cuenta con ese correo.",
      disabled: "El socio está desactivado: actívalo antes.",
      not_found: "Ese socio no existe.",
      invalid: "Revisa el formulario.",
    },
  },
  ...apiSecrets.es,
};

export type PartnerConsoleMessages = typeof es;
export type ApiSecretsMessages = PartnerConsoleMessages["apiSecrets"];

const en: PartnerConsoleMessages = {
  meta: {
    partners: "Partners",
    newPartner: "New partner",
    apiSecrets: "API secrets",
  },
  common: {
    errorPrefix: "Error:",
    saving: "Saving…",
    copy: "Copy",
    copied: "Copied",
    none: "—",
    notFound: "There is no such partner.",
  },
  list: {
    title: "Partners",
    intro:
      "The agencies and groups using the checkout. Each partner has its financing API key, its origins, its agencies and its checkout sessions API secrets.",
    create: "Create a partner",
    none: "There is no partner yet.",
    caption: "Partners, by name",
    columns: {
      name: "Name",
      id: "Id",
      state: "State",
      credential: "Financing key",
      secrets: "Working secrets",
      agencies: "Agencies",
      staff: "Staff",
    },
  },
  states: { active: "Active", disabled: "Disabled" },
  credentials: {
    deployment: "The platform's",
    deploymentAgency: "The platform's · agency {agency}",
    agency: "Agency key ····{last4}",
    group: "Group key ····{last4} · agency {agency}",
  },
  create: {
    title: "New partner",
    intro: "Start with its id and name; the rest (key, origins, agencies, secrets) is set on its page.",
    id: "Id",
    idHint: "3 to 40 lower-case letters, digits and hyphens (for example acme-travel). It cannot change later.",
    name: "Name",
    nameHint: "As its customers will see it in the checkout.",
    submit: "Create the partner",
    summaryTitle: "Check these fields",
    errors: {
      invalid: "The id takes 3 to 40 lower-case letters, digits and hyphens, with no hyphen first or last.",
      reserved: "That id is reserved.",
      taken: "There is already a partner with that id.",
      missing: "Enter the name.",
      too_long: "The name is at most 100 characters.",
      characters: "The name has characters that are not allowed.",
    },
  },
  detail: {
    back: "All partners",
    idLabel: "Id: {id}",
    notices: {
      created: "Partner created. Now set its key, its origins and its secrets.",
      disabled: "Partner disabled: its secrets answer 401 and its customers see that the payment is unavailable.",
      enabled: "Partner enabled again.",
      agencies: "Agencies saved.",
      agenciesInvalid: "Agencies are positive whole numbers (at most 50), separated by commas or spaces.",
    },
    disabledBanner: "This partner has been disabled since {since}.",
  },
  settings: {
    title: "Partner settings",
    name: "Name",
    origins: "Allowed origins",
    originsHint: "One a line, like https://shop.agency.example: the customer may be returned there, and the checkout embedded from there.",
    returnUrl: "Default return URL",
    returnUrlHint: "Where a payment link's customer goes back to; on one of the allowed origins. Empty: no payment links open.",
    submit: "Save the settings",
    saved: "Settings saved.",
    errors: {
      missing: "Enter the name.",
      too_long: "It is too long.",
      characters: "It has characters that are not allowed.",
      invalid_origin: "Line {line} is not an origin (scheme, host and port, no path).",
      host: "Line {line} has no host name or IP address: no wildcard (*), no trailing dot, no underscore.",
      https_only: "Line {line} is not https: with the production financing API, https only.",
      too_many: "At most 20 origins.",
      invalid_url: "Enter a full address, like https://agency.example/booking/done.",
      not_allowed_origin: "The address must be on one of the allowed origins.",
    },
  },
  notifications: {
    title: "Notifications to the partner's system",
    intro: "Where the signed notifications of every state change are sent. The partner's staff rotate the signing secret.",
    saved: "Address saved.",
    notFound: "There is no such partner.",
  },
  retention: {
    title: "Customers' data retention",
    intro:
      "How many days a customer's personal data is kept once their session ended (or expired unfinished). Past it, the data is erased and the partner notified; the session, its amounts and states stay.",
    label: "Days kept",
    hint: "From 1 to {max} days (the platform's ceiling).",
    save: "Save the period",
    saved: "Period saved.",
    notFound: "There is no such partner.",
    errors: { invalid: "Type a whole number of days, 1 or more.", over_ceiling: "At most {max} days, the platform's ceiling." },
  },
  credential: {
    title: "Financing API key",
    intro: "Checked live with the API before it is saved, stored encrypted and never shown again: only its last four characters.",
    current: "Now: {credential}",
    kind: "Kind of key",
    kinds: {
      agency: "Agency key",
      group: "Group key (with an agency)",
      deployment: "The platform's key",
    },
    key: "Key",
    keyHint: "It starts with {prefix}. Checked with GET /health (agency) or GET /agencies (group).",
    submit: "Check and save",
    verifying: "Checking…",
    saved: "Key checked and saved.",
    pickAgency: "The key reaches these agencies: pick the one this partner acts for.",
    agency: "Agency",
    agencyOption: "{name} ({id})",
    saveAgency: "Save with this agency",
    errors: {
      malformed: "That is not a financing API key (it starts with fk_test_ or fk_live_).",
      wrong_environment: "This platform uses the financing API with {prefix} keys: that key is for the other one. It was not sent.",
      refused: "The financing API does not accept the key: {reason}",
      unreachable: "The financing API is not answering right now ({reason}). Nothing was saved: try again.",
      no_agencies: "That group key reaches no active agency.",
      agency_not_reached: "The key does not reach that agency.",
      pending_expired: "Too much time has passed: enter the key again.",
      not_found: "There is no such partner.",
      invalid: "Check the form.",
    },
  },
  agencies: {
    title: "Agencies its staff see",
    intro:
      "These agencies' operations are the partner's in the back-office, besides those of its own sessions. A key reaching an agency is not enough: it is assigned here.",
    current: "Now: {agencies}",
    noneAssigned: "none (its staff see only the operations of its own sessions)",
    field: "Agencies (numbers, separated by commas)",
    submit: "Save the agencies",
    reachable: "Agencies its key reaches",
    reachableNone: "With an agency key there is no list to show: enter its number if you know it.",
    reachableUnavailable: "We could not ask the API for the key's agencies right now.",
    columns: { id: "Number", name: "Name", city: "City" },
  },
  state: {
    title: "State",
    activeText:
      "Active. Disabled, its API secrets answer 401 at once and its customers see that the payment is unavailable. Nothing is deleted.",
    disabledText: "Disabled. Enabled again, everything works as it did.",
    disable: "Disable the partner",
    disableConsequence:
      "Disabled, {name}'s API secrets answer 401 at once, its customers see that the payment is unavailable and its staff cannot sign in. Nothing is deleted: enabled again, everything works as it did.",
    disableConfirm: "Disable now",
    enable: "Enable the partner",
  },
  admin: {
    title: "First administrator",
    intro: "Create the account of whoever will administer the partner. The one-time link is shown once: hand it over by a safe channel.",
    staffCount: "The partner's staff: {n}",
    email: "E-mail",
    name: "Name",
    submit: "Create the account and the link",
    linkTitle: "One-time link",
    linkIntro: "Copy it now: it will not be shown again. With it, they set a password and two-step verification.",
    errors: {
      invalid_email: "Enter a valid e-mail address.",
      invalid_name: "Enter the name (at most 100 characters).",
      email_taken: "There is already an account with that e-mail.",
      disabled: "The partner is disabled: enable it first.",
      not_found: "There is no such partner.",
      invalid: "Check the form.",
    },
  },
  ...apiSecrets.en,
};

export const PARTNER_CONSOLE_MESSAGES: Record<Locale, PartnerConsoleMessages> = { es, en };

export function getPartnerConsoleMessages(locale: Locale): PartnerConsoleMessages {
  return PARTNER_CONSOLE_MESSAGES[locale];
}

/** The API secrets panel's words, one set for the back-office's settings and the operator console. */
export function apiSecretsPanelText(m: PartnerConsoleMessages) {
  return { text: m.apiSecrets, errorPrefix: m.common.errorPrefix, copy: { copy: m.common.copy, copied: m.common.copied } };
}
