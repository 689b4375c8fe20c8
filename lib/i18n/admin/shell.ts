/** The back-office's words (lib/i18n/admin-messages.ts): the frame: page titles, navigation, and the words and statuses every page shares. */

/** The partner API's operation statuses, as staff read them. */
type StatusTexts = Record<
  | "GENERATED"
  | "PENDING"
  | "CLIENT_REQUESTED"
  | "PENDING_RESPONSE"
  | "FAVORABLE"
  | "CONFIRMED"
  | "REFUSED"
  | "REFUNDED"
  | "CANCELLED"
  | "EXPIRED"
  | "ERROR"
  | "FINISHED",
  string
>;

const es = {
  meta: {
    login: "Acceso del personal",
    health: "Estado de la integración",
    simulator: "Simulador",
    operations: "Operaciones",
    operation: "Operación",
    refund: "Devolución",
    theme: "Tema de la marca",
    code: "Verificación en dos pasos",
    enrolmentLink: "Configura tu acceso",
    security: "Seguridad de la cuenta",
    enrol: "Configurar la verificación en dos pasos",
    password: "Cambiar la contraseña",
    audit: "Registro de auditoría",
    notifications: "Avisos",
    dataRequests: "Solicitudes de datos",
  },
  common: {
    backOffice: "Back-office",
    navLabel: "Secciones del back-office",
    nav: {
      health: "Estado",
      simulator: "Simulador",
      paymentLinks: "Enlace de pago",
      operations: "Operaciones",
      notifications: "Avisos",
      apiSecrets: "Secretos de la API",
      theme: "Tema",
      security: "Seguridad",
      audit: "Auditoría",
      staff: "Equipo",
      dataRequests: "Solicitudes de datos",
    },
    signOut: "Cerrar sesión",
    switchLanguage: "Cambiar idioma:",
    signedInAs: (name: string) => `Sesión de ${name}`,
    agencyLabel: "Agencia",
    switchAgency: "Cambiar de agencia",
    agencyOption: (name: string, id: number) => `${name} (${id})`,
    agencyCurrent: (name: string, id: number) => `Agencia: ${name} (${id})`,
    agenciesUnavailable: "No hemos podido leer las agencias del grupo ahora mismo.",
    /** The consoles' 404 and 403 pages (app/admin/refusal.tsx), in their frame. */
    refusals: {
      notFound: { title: "No encontramos esta página", body: "La dirección no existe o lo que buscas ya no está." },
      forbidden: {
        title: "No tienes acceso a esta página",
        body: "Tu cuenta no tiene permiso para abrirla. Si la necesitas, pídeselo a un administrador de tu agencia.",
      },
      home: "Ir al inicio",
      signIn: "Entrar",
    },
    notAvailable: "—",
    customerErased: "Datos borrados",
    customerUnavailable: "Datos no disponibles",
    errorPrefix: "Error:",
    sending: "Enviando…",
    reasonLabel: "Motivo (opcional)",
    reasonHint: "Como máximo 255 caracteres. Queda en el historial de la operación.",
    apiUnavailable: "La API de financiación no responde ahora mismo. No se ha cambiado nada. Espera un momento y vuelve a intentarlo.",
    apiAuth: "La API de financiación no acepta nuestra clave. Revisa la configuración de la clave de este socio.",
    apiForbidden: "La API de financiación no nos deja ver esto con la clave y la agencia actuales.",
    statuses: {
      GENERATED: "Generada",
      PENDING: "Pendiente",
      CLIENT_REQUESTED: "Solicitada por el cliente",
      PENDING_RESPONSE: "Esperando respuesta",
      FAVORABLE: "Aprobada",
      CONFIRMED: "Confirmada",
      REFUSED: "Rechazada",
      REFUNDED: "Devuelta",
      CANCELLED: "Cancelada",
      EXPIRED: "Caducada",
      ERROR: "Error",
      FINISHED: "Finalizada",
    } satisfies StatusTexts,
  },
  counter: {
    /** Shown while typing: "12 / 255". */
    count: "{count} / {max}",
    /** Read by screen readers with the field. */
    described: "{count} de {max} caracteres",
    over: "Sobran {over} caracteres",
  },
};

export type ShellMessages = typeof es;

const en: ShellMessages = {
  meta: {
    login: "Staff sign-in",
    health: "Integration health",
    simulator: "Simulator",
    operations: "Operations",
    operation: "Operation",
    refund: "Refund",
    theme: "Brand theme",
    code: "Two-step verification",
    enrolmentLink: "Set up your access",
    security: "Account security",
    enrol: "Set up two-step verification",
    password: "Change password",
    audit: "Audit log",
    notifications: "Notifications",
    dataRequests: "Data requests",
  },
  common: {
    backOffice: "Back-office",
    navLabel: "Back-office sections",
    nav: {
      health: "Health",
      simulator: "Simulator",
      paymentLinks: "Payment link",
      operations: "Operations",
      notifications: "Notifications",
      apiSecrets: "API secrets",
      theme: "Theme",
      security: "Security",
      audit: "Audit log",
      staff: "Team",
      dataRequests: "Data requests",
    },
    signOut: "Sign out",
    switchLanguage: "Change language:",
    signedInAs: (name) => `Signed in as ${name}`,
    agencyLabel: "Agency",
    switchAgency: "Switch agency",
    agencyOption: (name, id) => `${name} (${id})`,
    agencyCurrent: (name, id) => `Agency: ${name} (${id})`,
    agenciesUnavailable: "We could not read the group's agencies right now.",
    refusals: {
      notFound: { title: "We cannot find this page", body: "The address does not exist, or what you are looking for is gone." },
      forbidden: {
        title: "You do not have access to this page",
        body: "Your account may not open it. If you need it, ask an administrator of your agency.",
      },
      home: "Go to the home page",
      signIn: "Sign in",
    },
    notAvailable: "—",
    customerErased: "Details erased",
    customerUnavailable: "Details unavailable",
    errorPrefix: "Error:",
    sending: "Sending…",
    reasonLabel: "Reason (optional)",
    reasonHint: "At most 255 characters. It is kept in the operation's history.",
    apiUnavailable: "The financing API is not answering right now. Nothing was changed. Wait a moment and try again.",
    apiAuth: "The financing API does not accept our key. Check this partner's key configuration.",
    apiForbidden: "The financing API does not let us see this with the current key and agency.",
    statuses: {
      GENERATED: "Generated",
      PENDING: "Pending",
      CLIENT_REQUESTED: "Requested by the customer",
      PENDING_RESPONSE: "Awaiting the provider",
      FAVORABLE: "Approved",
      CONFIRMED: "Confirmed",
      REFUSED: "Refused",
      REFUNDED: "Refunded",
      CANCELLED: "Cancelled",
      EXPIRED: "Expired",
      ERROR: "Error",
      FINISHED: "Finished",
    },
  },
  counter: {
    count: "{count} / {max}",
    described: "{count} of {max} characters",
    over: "{over} characters too many",
  },
};

export const shell = { es, en };
