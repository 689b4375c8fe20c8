import { inertText } from "./inert-text";
import { noticeEmail } from "./link-email-layout";
import type { EmailContent } from "./payment-link-email";

/**
 * The e-mails that tell people their account changed: their password changed or was reset, an
 * administrator reset their second factor or changed what they may do, and (to a partner's
 * administrators) a new API secret; and, to an address invited by a partner while it has an account
 * elsewhere, that the invitation cannot be used with it. Pure. The recipient's language is not known (it is whatever
 * their browser says when they sign in), so each says it in Spanish, then in English. Names typed by
 * people (the agency's, an administrator's, a secret's) are rendered inert. No link: a notice is
 * something to check, not a button to press; who did not expect it tells an administrator.
 */

export type AccountNoticeKind =
  "password-changed" | "password-reset" | "second-factor-reset" | "access-changed" | "api-secret-created" | "invited-elsewhere";

export interface AccountNoticeInput {
  kind: AccountNoticeKind;
  /** The agency's name; the platform's for an operator. */
  organisation: string;
  at: Date;
  /** Who made the change, when it was someone else (an administrator). */
  by?: string;
  /** What the member may do now (access-changed). */
  access?: { role: "admin" | "agent"; canRefund: boolean; canDataRequests: boolean };
  /** The new secret's name (api-secret-created). */
  secretName?: string;
}

/** "2026-12-02 10:15 UTC": the same in both languages. */
function when(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

const ES = {
  subject: {
    "password-changed": "tu contraseña ha cambiado",
    "password-reset": "tu contraseña se ha restablecido",
    "second-factor-reset": "tu verificación en dos pasos se ha restablecido",
    "access-changed": "han cambiado tus permisos",
    "api-secret-created": "hay un secreto de la API nuevo",
    "invited-elsewhere": "te han invitado, pero ya tienes una cuenta",
  },
  intro: (n: AccountNoticeInput, org: string, by: string) =>
    ({
      "password-changed": `La contraseña de tu cuenta del back-office de ${org} ha cambiado el ${when(n.at)}. Tus demás sesiones se han cerrado.`,
      "password-reset": `La contraseña de tu cuenta del back-office de ${org} se ha restablecido con un enlace enviado a este correo el ${when(n.at)}. Todas tus sesiones se han cerrado.`,
      "second-factor-reset": `${by}, administrador de ${org}, ha restablecido tu verificación en dos pasos el ${when(n.at)}. Todas tus sesiones se han cerrado.`,
      "access-changed": `${by}, administrador de ${org}, ha cambiado lo que puedes hacer en el back-office el ${when(n.at)}.`,
      "api-secret-created": `${by} ha creado un secreto de la API de ${org} el ${when(n.at)}.`,
      "invited-elsewhere": `${by}, administrador de ${org}, ha invitado esta dirección a su back-office el ${when(n.at)}. Esta dirección ya tiene una cuenta del back-office en otra agencia o en la plataforma, así que la invitación no puede usarse con ella y no cambia nada de esa cuenta. Para unirte a ${org}, pide que inviten otra dirección.`,
    })[n.kind],
  labels: {
    role: "Rol",
    admin: "Administrador",
    agent: "Agente",
    refund: "Puede hacer devoluciones",
    data: "Puede atender solicitudes de datos",
    secret: "Nombre del secreto",
    yes: "sí",
    no: "no",
  },
  notYou: "Si no lo esperabas, avisa cuanto antes a un administrador de tu agencia.",
  notYouInvited: "Si no esperabas esta invitación, ignora este mensaje.",
};

const EN: typeof ES = {
  subject: {
    "password-changed": "your password was changed",
    "password-reset": "your password was reset",
    "second-factor-reset": "your two-step verification was reset",
    "access-changed": "your permissions were changed",
    "api-secret-created": "a new API secret was created",
    "invited-elsewhere": "you were invited, but you already have an account",
  },
  intro: (n, org, by) =>
    ({
      "password-changed": `The password of your ${org} back-office account was changed on ${when(n.at)}. Your other sessions were signed out.`,
      "password-reset": `The password of your ${org} back-office account was reset with a link sent to this address on ${when(n.at)}. All your sessions were signed out.`,
      "second-factor-reset": `${by}, an administrator of ${org}, reset your two-step verification on ${when(n.at)}. All your sessions were signed out.`,
      "access-changed": `${by}, an administrator of ${org}, changed what you may do in the back-office on ${when(n.at)}.`,
      "api-secret-created": `${by} created an API secret of ${org} on ${when(n.at)}.`,
      "invited-elsewhere": `${by}, an administrator of ${org}, invited this address to its back-office on ${when(n.at)}. This address already has a back-office account at another agency or on the platform, so the invitation cannot be used with it, and it changes nothing of that account. To join ${org}, ask them to invite another address.`,
    })[n.kind],
  labels: {
    role: "Role",
    admin: "Administrator",
    agent: "Agent",
    refund: "May refund",
    data: "May answer data requests",
    secret: "The secret's name",
    yes: "yes",
    no: "no",
  },
  notYou: "If you were not expecting this, tell an administrator of your agency at once.",
  notYouInvited: "If you were not expecting this invitation, ignore this message.",
};

export function accountNoticeEmail(input: AccountNoticeInput): EmailContent {
  const organisation = inertText(input.organisation);
  const by = inertText(input.by ?? "");
  const section = (t: typeof ES) => {
    const rows: [string, string][] = [];
    if (input.access) {
      const yesNo = (value: boolean) => (value ? t.labels.yes : t.labels.no);
      rows.push([t.labels.role, t.labels[input.access.role]], [t.labels.refund, yesNo(input.access.canRefund)]);
      if (input.access.role === "admin") rows.push([t.labels.data, yesNo(input.access.canDataRequests)]);
    }
    if (input.secretName !== undefined) rows.push([t.labels.secret, inertText(input.secretName)]);
    return { intro: t.intro(input, organisation, by), rows, notYou: input.kind === "invited-elsewhere" ? t.notYouInvited : t.notYou };
  };
  return noticeEmail({
    subject: `${input.organisation}: ${ES.subject[input.kind]} / ${EN.subject[input.kind]}`,
    sections: [
      { locale: "es", greeting: "Hola:", ...section(ES) },
      { locale: "en", greeting: "Hello,", ...section(EN) },
    ],
  });
}
