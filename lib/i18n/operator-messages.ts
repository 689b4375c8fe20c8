import type { Locale } from "./locales";

/**
 * The texts of the platform operator's console (`/operator`): its frame and home page, in Spanish
 * (the source) and English; `en` is typed by `es`. The console's own pages (partners, …) add theirs.
 */

const es = {
  meta: { home: "Consola del operador" },
  common: {
    console: "Consola del operador",
    navLabel: "Secciones de la consola",
    nav: { home: "Inicio", partners: "Socios" },
    signedInAs: (name: string) => `Sesión de ${name}`,
  },
  home: {
    title: "Consola del operador",
    intro: "Desde aquí se gestiona la plataforma: las agencias (socios) que usan el checkout y su primer administrador.",
    sectionsHeading: "Qué hay aquí",
    partners: "Socios",
    partnersIntro:
      "Da de alta, edita y desactiva agencias: su clave de la API de financiación, sus orígenes y avisos, sus secretos de API y la invitación a su primer administrador.",
    operatorsHeading: "Operadores",
    operatorsIntro:
      "Los operadores se crean, listan y desactivan desde la línea de órdenes del servidor (npm run admin -- create-operator, list-operators, disable-operator). Ver docs/going-live.md.",
    accountHeading: "Tu cuenta",
    accountIntro:
      "Si pierdes el teléfono, entra con uno de tus códigos de recuperación; si olvidas la contraseña, usa «¿Has olvidado la contraseña?» en la página de acceso.",
  },
};

export type OperatorMessages = typeof es;

const en: OperatorMessages = {
  meta: { home: "Operator console" },
  common: {
    console: "Operator console",
    navLabel: "Console sections",
    nav: { home: "Home", partners: "Partners" },
    signedInAs: (name: string) => `Signed in as ${name}`,
  },
  home: {
    title: "Operator console",
    intro: "This is where the platform is run: the agencies (partners) using the checkout and their first administrator.",
    sectionsHeading: "What is here",
    partners: "Partners",
    partnersIntro:
      "Create, edit and disable agencies: their financing API key, their origins and notifications, their API secrets, and the invitation of their first administrator.",
    operatorsHeading: "Operators",
    operatorsIntro:
      "Operators are created, listed and disabled from the server's command line (npm run admin -- create-operator, list-operators, disable-operator). See docs/going-live.md.",
    accountHeading: "Your account",
    accountIntro:
      "If you lose your phone, sign in with one of your recovery codes; if you forget your password, use “Forgot your password?” on the sign-in page.",
  },
};

export const OPERATOR_MESSAGES: Record<Locale, OperatorMessages> = { es, en };

export function getOperatorMessages(locale: Locale): OperatorMessages {
  return OPERATOR_MESSAGES[locale];
}
