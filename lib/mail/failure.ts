/**
 * What of a failed send may be logged: nodemailer's error code (`EENVELOPE`, `ECONNECTION`…), the
 * SMTP reply code (550) and the command it answered. Never the message: it quotes the server's
 * reply, which names the recipient in whatever words the server chose (an address the scrubber
 * catches, but also a name or a local part it cannot tell from text).
 */
export interface MailFailure {
  code?: string;
  responseCode?: number;
  command?: string;
}

export function mailFailure(error: unknown): MailFailure {
  if (typeof error !== "object" || error === null) return {};
  const { code, responseCode, command } = error as Record<string, unknown>;
  return {
    ...(typeof code === "string" && /^[A-Z_]{1,32}$/.test(code) ? { code } : {}),
    ...(typeof responseCode === "number" ? { responseCode } : {}),
    ...(typeof command === "string" && /^[A-Z ]{1,16}$/.test(command) ? { command } : {}),
  };
}
