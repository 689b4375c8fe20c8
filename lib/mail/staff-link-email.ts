import type { Locale } from "@/lib/i18n/locales";
import { inertText } from "./inert-text";
import { linkEmail } from "./link-email-layout";
import type { EmailContent } from "./payment-link-email";

/**
 * The e-mails that carry a staff member's one-time link: an invitation (the password and the
 * second factor set up there), a new link after an administrator reset the second factor, and a
 * password reset. Pure. Names typed by people (the agency's, the inviter's) are rendered inert, so
 * no mail client makes a link of them; the link is the only link.
 */

export type StaffLinkEmailKind = "invitation" | "second-factor-reset" | "password-reset";

export interface StaffLinkEmailInput {
  kind: StaffLinkEmailKind;
  locale: Locale;
  /** The agency's name; the platform's name for an operator. */
  organisation: string;
  link: string;
  /** Formatted already ("24 de noviembre, 10:30"). */
  expiresAt: string;
}

const TEXTS = {
  es: {
    subject: {
      invitation: (org: string) => `${org}: te han invitado al back-office`,
      "second-factor-reset": (org: string) => `${org}: vuelve a configurar tu acceso`,
      "password-reset": (org: string) => `${org}: restablece tu contraseña`,
    },
    greeting: "Hola:",
    intro: {
      invitation: (org: string) =>
        `Te han dado acceso al back-office de ${org}. Abre este enlace para elegir tu contraseña y configurar la verificación en dos pasos:`,
      "second-factor-reset": (org: string) =>
        `Un administrador de ${org} ha restablecido tu verificación en dos pasos. Abre este enlace para elegir una contraseña y configurarla de nuevo:`,
      "password-reset": (org: string) =>
        `Alguien ha pedido restablecer la contraseña de tu cuenta del back-office de ${org}. Abre este enlace para elegir una nueva:`,
    },
    button: {
      invitation: "Configurar mi acceso",
      "second-factor-reset": "Configurar mi acceso",
      "password-reset": "Elegir una contraseña nueva",
    },
    expires: (at: string) => `El enlace funciona una sola vez y caduca el ${at}.`,
    notYou: {
      invitation: "Si no esperabas esta invitación, ignora este mensaje.",
      "second-factor-reset": "Si no lo esperabas, avisa a un administrador de tu agencia.",
      "password-reset": "Si no lo has pedido tú, ignora este mensaje: tu contraseña no cambia si no abres el enlace.",
    },
  },
  en: {
    subject: {
      invitation: (org: string) => `${org}: you are invited to the back-office`,
      "second-factor-reset": (org: string) => `${org}: set up your access again`,
      "password-reset": (org: string) => `${org}: reset your password`,
    },
    greeting: "Hello,",
    intro: {
      invitation: (org: string) =>
        `You have been given access to the back-office of ${org}. Open this link to choose your password and set up two-step verification:`,
      "second-factor-reset": (org: string) =>
        `An administrator of ${org} has reset your two-step verification. Open this link to choose a password and set it up again:`,
      "password-reset": (org: string) =>
        `Someone asked to reset the password of your ${org} back-office account. Open this link to choose a new one:`,
    },
    button: { invitation: "Set up my access", "second-factor-reset": "Set up my access", "password-reset": "Choose a new password" },
    expires: (at: string) => `The link works once and expires on ${at}.`,
    notYou: {
      invitation: "If you were not expecting this invitation, ignore this message.",
      "second-factor-reset": "If you were not expecting this, tell an administrator of your agency.",
      "password-reset": "If you did not ask for this, ignore this message: your password does not change unless the link is opened.",
    },
  },
} satisfies Record<Locale, unknown>;

export function staffLinkEmail(input: StaffLinkEmailInput): EmailContent {
  const t = TEXTS[input.locale];
  const organisation = inertText(input.organisation);
  return linkEmail({
    locale: input.locale,
    subject: t.subject[input.kind](input.organisation),
    audience: "staff",
    greeting: t.greeting,
    intro: t.intro[input.kind](organisation),
    link: input.link,
    button: t.button[input.kind],
    expires: t.expires(input.expiresAt),
    notYou: t.notYou[input.kind],
  });
}
