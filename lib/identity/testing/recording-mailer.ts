import type { Mailer } from "@/lib/mail/mailer";

/**
 * A mail server for tests: keeps what it was given to send (`sent`) and counts the tries; with
 * `fail`, refuses every message as a server does (its words naming an address, a code), so a test
 * can check that neither reaches the logs.
 */
export function recordingMailer(fail = false): Mailer & { sent: Parameters<Mailer["send"]>[0][]; tried: number } {
  const sent: Parameters<Mailer["send"]>[0][] = [];
  return {
    sent,
    tried: 0,
    async send(message) {
      this.tried++;
      if (fail) throw Object.assign(new Error("550 no such user ana@viajes-aurora.example"), { code: "EENVELOPE", responseCode: 550 });
      sent.push(message);
      return { messageId: `<m${sent.length}@test>` };
    },
  };
}
