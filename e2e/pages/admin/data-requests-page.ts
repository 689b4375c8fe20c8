import { expect, type Download, type Locator, type Page } from "@playwright/test";
import type { AdminMessages } from "@/lib/i18n/admin-messages";

/** `/admin/data-requests`: a customer's data requests (find, export, erase). */
export class DataRequestsPage {
  readonly t: AdminMessages["dataRequests"];
  readonly heading: Locator;
  readonly by: Locator;
  readonly value: Locator;
  readonly search: Locator;
  readonly sessions: Locator;
  readonly none: Locator;
  readonly downloadJson: Locator;
  readonly seeExport: Locator;
  readonly exported: Locator;
  readonly eraseAll: Locator;
  readonly confirm: Locator;

  constructor(
    readonly page: Page,
    readonly m: AdminMessages,
  ) {
    this.t = m.dataRequests;
    this.heading = page.getByRole("heading", { level: 1 });
    this.by = page.getByLabel(this.t.by, { exact: true });
    this.value = page.getByLabel(this.t.value, { exact: true });
    this.search = page.getByRole("button", { name: this.t.search, exact: true });
    this.sessions = page.getByTestId("data-request-session");
    this.none = page.getByTestId("data-request-none");
    this.downloadJson = page.getByTestId("data-request-json");
    this.seeExport = page.getByRole("button", { name: this.t.exportPage, exact: true });
    this.exported = page.getByTestId("data-request-export");
    this.eraseAll = page.getByRole("button", { name: this.t.eraseAll, exact: true });
    this.confirm = page.getByRole("button", { name: this.t.confirm, exact: true });
  }

  async goto() {
    await this.page.goto("/admin/data-requests");
    await expect(this.heading).toHaveText(this.t.title);
  }

  async find(by: "document" | "email", value: string) {
    await this.by.selectOption(by);
    await this.value.fill(value);
    await this.search.click();
  }

  session(reference: string): Locator {
    return this.sessions.filter({ hasText: reference });
  }

  /** The JSON download, parsed. */
  async downloadExport(): Promise<{ download: Download; body: unknown }> {
    const [download] = await Promise.all([this.page.waitForEvent("download"), this.downloadJson.click()]);
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return { download, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown };
  }

  /** Erases one session's customer data, through the confirmation step. */
  async erase(reference: string) {
    await this.page.getByRole("button", { name: this.t.eraseLabel.replace("{reference}", reference), exact: true }).click();
    await expect(this.page.getByTestId("data-request-confirm")).toContainText(reference);
    await this.confirm.click();
  }
}
