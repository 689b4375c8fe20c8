import { expect, type Locator, type Page } from "@playwright/test";
import type { AdminMessages } from "@/lib/i18n/admin-messages";

type Texts = AdminMessages["notifications"];
const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? ""));

/**
 * `/admin/notifications`: the partner's notification URL and signing secret (rotation shows the new
 * secret once), a test notification, and the notifications sent, each with "Resend".
 */
export class NotificationsPage {
  readonly t: Texts;
  readonly heading: Locator;
  readonly urlField: Locator;
  readonly saveUrlButton: Locator;
  readonly urlSaved: Locator;
  readonly rotateButton: Locator;
  /** The new secret, shown once after a rotation. */
  readonly newSecret: Locator;
  readonly testButton: Locator;
  readonly table: Locator;

  constructor(
    readonly page: Page,
    readonly m: AdminMessages,
  ) {
    this.t = m.notifications;
    this.heading = page.getByRole("heading", { level: 1, name: this.t.title });
    this.urlField = page.getByRole("textbox", { name: this.t.urlLabel });
    this.saveUrlButton = page.getByRole("button", { name: this.t.urlSave, exact: true });
    this.urlSaved = page.getByRole("status").filter({ hasText: this.t.urlSaved });
    this.rotateButton = page.getByRole("button", { name: this.t.rotate, exact: true });
    this.newSecret = page.locator("#new-signing-secret");
    this.testButton = page.getByRole("button", { name: this.t.testSend, exact: true });
    this.table = page.getByRole("table", { name: this.t.listTitle });
  }

  async goto() {
    await this.page.goto("/admin/notifications");
    await expect(this.heading).toBeVisible();
  }

  /** The row of a session's notification of this type, found by the session's booking reference. */
  row(reference: string, type: string): Locator {
    return this.table.getByRole("row").filter({ hasText: reference }).filter({ hasText: type });
  }

  resendButton(reference: string, type: string): Locator {
    return this.row(reference, type).getByRole("button", { name: fill(this.t.resendLabel, { event: type, session: reference }) });
  }

  resent(outcome: keyof Texts["resent"]): Locator {
    return this.page.getByText(this.t.resent[outcome]);
  }

  async setUrl(url: string) {
    await this.urlField.fill(url);
    await this.saveUrlButton.click();
  }

  /** The field's error, as the page says it. */
  urlError(kind: keyof Texts["urlErrors"]): Locator {
    return this.page.getByText(this.t.urlErrors[kind]);
  }

  /** Rotates the signing secret and answers the new one, as shown. */
  async rotate(): Promise<string> {
    const before = (await this.newSecret.count()) > 0 ? await this.newSecret.innerText() : undefined;
    await this.rotateButton.click();
    await expect(this.newSecret).toHaveText(/^whsec_/);
    if (before !== undefined) await expect(this.newSecret).not.toHaveText(before);
    return (await this.newSecret.innerText()).trim();
  }

  testOk(status: number): Locator {
    return this.page.getByRole("status").filter({ hasText: fill(this.t.testOk, { status }) });
  }

  async sendTest() {
    await this.testButton.click();
  }
}
