import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { expect, test } from "./fixtures";
import { APP_PORT, STAFF } from "./support/app";
import { expectNoAxeViolations } from "./support/axe";
import { startProcess, waitUntilOk, type Instance, SERVER_ARGS } from "./support/instances";
import { aBookingReference, aCustomer, isoDayFromToday } from "./support/test-data";

/*
 * The payment link e-mail: the production build the web server made, run as a process of
 * its own with SMTP_URL pointing at an SMTP server this test starts on loopback (smtp-server), which
 * keeps what it receives. Staff send the link; the message holds the trip, the amount and the link,
 * in the customer's language, and not the phone or the name staff typed as the customer's prefill
 * (staff are no longer asked for the document or the birth date); the trip's name is no link; the
 * audit names the recipient masked; another address than the booking's needs a confirmation.
 */
test.describe.configure({ mode: "serial", timeout: 180_000 });

const PORT = APP_PORT + 91;
const BASE = `http://localhost:${PORT}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "travel-checkout-paylink-"));

test.use({ baseURL: BASE, locale: "es-ES" });

let app: Instance | undefined;
let smtp: SMTPServer | undefined;
const received: { envelopeTo: string[]; mail: ParsedMail; raw: string }[] = [];

test.beforeAll(async () => {
  // `next start` on a busy machine.
  test.setTimeout(120_000);
  smtp = new SMTPServer({
    // A local test server: no TLS, no login.
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then((mail) => {
            received.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), mail, raw: raw.toString("utf8") });
            callback();
          })
          .catch(callback);
      });
    },
  });
  await new Promise<void>((resolve) => smtp!.listen(0, "127.0.0.1", resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  app = startProcess(
    "app",
    SERVER_ARGS,
    { PORT: String(PORT), DATA_DIR: dataDir, SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, SMTP_FROM: "pagos@viajes-aurora.example" },
    PORT,
  );
  await waitUntilOk(`http://127.0.0.1:${PORT}/api/health`, { timeoutMs: 180_000, instance: app });
});

test.afterAll(async () => {
  await app?.stop("SIGTERM");
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  rmSync(dataDir, { recursive: true, force: true });
});

test("staff e-mail the link in the customer's language: the trip, the amount and the link, no personal data", async ({ page, admin }) => {
  const { paymentLinks: links } = admin;
  await admin.signIn(STAFF.aurora);
  await links.gotoNew();
  const { firstName, lastName, phone } = aCustomer();
  const prefill = { firstName, lastName, email: "ana.link@example.com", phone };
  // Staff are not asked for the customer's document or birth date: a link carries neither.
  await expect(page.getByLabel("DNI, NIE o pasaporte")).toHaveCount(0);
  await expect(page.getByLabel("Fecha de nacimiento")).toHaveCount(0);
  const url = await links.createLink({
    reference: aBookingReference("MAIL"),
    // Free text with an address in it: in the e-mail, no mail client may make a link of it.
    packageName: "Lisboa, 4 noches (www.viajes-aurora.example)",
    travellers: 2,
    total: "1234,50",
    flight: { origin: "MAD", destination: "LIS", departureDate: isoDayFromToday({ days: 60 }) },
    customer: prefill,
    locale: "en",
  });

  // The address is the prefill's; the language the customer's (English, as staff chose).
  await expect(links.emailTo).toHaveValue(prefill.email);
  await expect(links.emailLocale).toHaveValue("en");
  await expect(links.noSmtp).toHaveCount(0);
  await expectNoAxeViolations(page, "a payment link with the e-mail form");

  // A bad address is refused before anything is sent.
  await links.emailTo.fill("not an address");
  await links.send.click();
  await expect(page.getByRole("alert").filter({ hasText: links.t.emailInvalid })).toBeVisible();
  expect(received).toHaveLength(0);

  // Another address than the booking's: only once staff confirm they checked it with the customer.
  await links.emailTo.fill("someone.else@example.org");
  await links.send.click();
  await expect(page.getByRole("alert").or(page.getByRole("status")).filter({ hasText: links.t.emailNeedsConfirmation })).toBeVisible();
  expect(received).toHaveLength(0);

  await links.emailTo.fill(prefill.email);
  await links.send.click();
  await expect(page.getByRole("status").filter({ hasText: links.t.emailSent })).toBeVisible();
  await expect.poll(() => received.length).toBe(1);

  const { envelopeTo, mail, raw } = received[0]!;
  expect(envelopeTo).toEqual([prefill.email]);
  expect(mail.from?.value[0]).toMatchObject({ address: "pagos@viajes-aurora.example", name: "Viajes Aurora (demo)" });
  expect(mail.subject).toBe("Viajes Aurora (demo): your link to pay in installments");
  expect(mail.text).toContain(url);
  expect(mail.text).toContain("Lisboa, 4 noches");
  // The trip's name reads the same, but its address is broken up (zero-width joiners): not a link.
  expect(mail.text!.replaceAll("\u200D", "")).toContain("(www.viajes-aurora.example)");
  expect(decodedOf(mail)).not.toContain("viajes-aurora.example)");
  expect(mail.html || "").not.toMatch(/<a [^>]*viajes-aurora/);
  expect(mail.text).toContain("€1,234.50");
  expect(mail.html || "").toContain(`href="${url}"`);
  // Decoded (text and HTML) and as it travelled (raw): none of the customer's personal data.
  const decoded = decodedOf(mail);
  for (const value of [prefill.phone, prefill.lastName]) {
    expect(decoded).not.toContain(value);
    expect(raw).not.toContain(value);
  }

  // The audit log says a link was sent, by whom, and to whom only masked.
  await page.goto("/admin/audit?kind=payment_link_sent");
  const row = page.getByRole("row").filter({ hasText: STAFF.aurora.name }).first();
  await expect(row).toBeVisible();
  await expect(row).toContainText("a***@example.com");
  await expect(page.getByRole("main")).not.toContainText(prefill.email);

  // The server's log says a link was e-mailed, with ids only: no address, no document, no birth date.
  const log = app!.output.join("");
  expect(log).toContain('"msg":"payment link e-mailed"');
  for (const value of [prefill.email, prefill.phone]) expect(log).not.toContain(value);
});

/** What a mail reader shows: the subject, the text and the HTML. */
function decodedOf(mail: ParsedMail): string {
  return `${mail.subject}\n${mail.text}\n${mail.html || ""}`;
}
