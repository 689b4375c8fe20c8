import "server-only";
import nodemailer, { type Transporter } from "nodemailer";
import { getEnv } from "@/lib/config/env";
import type { EmailContent } from "./payment-link-email";

/**
 * Outgoing e-mail through the SMTP server of `SMTP_URL` (nodemailer), or none when it is unset:
 * then `getMailer()` is undefined and the pages say so. One transport per process, with pooled
 * connections. The logs of a send carry ids and codes only, never an address (lib/backoffice/payment-links/payment-links.ts).
 */

export interface Mailer {
  send(message: EmailContent & { to: string; fromName: string }): Promise<{ messageId: string }>;
}

let cached: { url: string; mailer: Mailer } | undefined;

export function getMailer(): Mailer | undefined {
  const smtp = getEnv().smtp;
  if (!smtp) return undefined;
  if (cached?.url !== smtp.url) cached = { url: smtp.url, mailer: createMailer(smtp) };
  return cached.mailer;
}

export function createMailer(smtp: { url: string; from: string }): Mailer {
  // A mail server that does not answer must not hold a staff member's request for minutes.
  const transport: Transporter = nodemailer.createTransport({
    url: smtp.url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(message) {
      const info = await transport.sendMail({
        from: { name: message.fromName, address: smtp.from },
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      return { messageId: String(info.messageId ?? "") };
    },
  };
}
