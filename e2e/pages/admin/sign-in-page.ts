import { expect, type Locator, type Page } from "@playwright/test";
import type { AdminMessages } from "@/lib/i18n/admin-messages";

/** `/admin/login`: the staff's sign-in. */
export class AdminSignInPage {
  readonly heading: Locator;
  readonly email: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly error: Locator;

  constructor(
    readonly page: Page,
    readonly m: AdminMessages,
  ) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.email = page.getByLabel(m.loginForm.email, { exact: true });
    this.password = page.getByLabel(m.loginForm.password, { exact: true });
    this.submit = page.getByRole("button", { name: m.loginForm.submit, exact: true });
    this.error = page.getByRole("alert").filter({ hasText: m.loginForm.summaryTitle });
  }

  /** @param next the page the sign-in goes back to. */
  async goto(next?: string) {
    await this.page.goto(next ? `/admin/login?next=${encodeURIComponent(next)}` : "/admin/login");
  }

  async expectShown() {
    await expect(this.page).toHaveURL(/\/admin\/login(\?|$)/);
    await expect(this.heading).toHaveText(this.m.login.title);
  }

  /** Sends the form and waits for the server's answer (an earlier error stays on screen until then). */
  async signIn(account: { email: string; password: string }) {
    await this.email.fill(account.email);
    await this.password.fill(account.password);
    const answered = this.page.waitForResponse(
      (response) => response.request().method() === "POST" && new URL(response.url()).pathname === "/admin/login",
    );
    await this.submit.click();
    await answered;
  }

  /**
   * Sends this page's requests from an address of its own (X-Forwarded-For, which the sign-in's rate
   * limit reads), so a test's failed sign-ins never lock another test's, or a later run's.
   */
  async useOwnAddress(): Promise<void> {
    const bytes = crypto.getRandomValues(new Uint8Array(2));
    await this.page.setExtraHTTPHeaders({ "X-Forwarded-For": `198.18.${bytes[0]}.${bytes[1]}` });
  }
}
