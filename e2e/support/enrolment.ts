import { randomUUID } from "node:crypto";
import { expect, type Page } from "@playwright/test";
import type { AdminMessages } from "@/lib/i18n/admin-messages";
import { EnrolmentLinkPages } from "../pages/admin/security-pages";
import { codeAt } from "../pages/admin/sign-in-page";

/**
 * A one-time enrolment or invitation link, used as its holder does: opened, Start pressed, and the
 * enrolment page reached (a session for enrolment only).
 */
export async function startFromLink(page: Page, m: AdminMessages, link: string): Promise<void> {
  const enrol = new EnrolmentLinkPages(page, m);
  await page.goto(link);
  await expect(enrol.heading).toHaveText(m.security.linkTitle);
  await enrol.start.click();
  await expect(page).toHaveURL(/\/admin\/security\/two-factor$/);
}

/**
 * On the enrolment page of a link's session: a new password, the QR code's key into "the app", the
 * first code; ends on the recovery codes. Returns what the person now signs in with (the TOTP
 * secret is what their authenticator app holds).
 */
export async function enrolHere(page: Page, m: AdminMessages): Promise<{ password: string; totpSecret: string }> {
  const enrol = new EnrolmentLinkPages(page, m);
  await expect(page).toHaveURL(/\/admin\/security\/two-factor$/);
  const totpSecret = await enrol.shownSecret();
  const password = `enrolled-${randomUUID()}`;
  await enrol.password.fill(password);
  await enrol.confirm.fill(password);
  await enrol.code.fill(await codeAt(totpSecret, Date.now()));
  await enrol.activate.click();
  // Hashing the password and sealing the secret: seconds on a loaded machine.
  await expect(enrol.recoveryTitle).toBeVisible({ timeout: 20_000 });
  return { password, totpSecret };
}

/** Both of the above: the person's access set up from their link. */
export async function enrolWithLink(page: Page, m: AdminMessages, link: string): Promise<{ password: string; totpSecret: string }> {
  await startFromLink(page, m, link);
  return enrolHere(page, m);
}
