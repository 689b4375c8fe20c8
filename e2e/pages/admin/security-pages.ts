import { expect, type Locator, type Page } from "@playwright/test";
import type { AdminMessages } from "@/lib/i18n/admin-messages";

/** `/admin/security` and `/admin/security/password`: the staff member's own sessions and password. */
export class SecurityPages {
  readonly heading: Locator;
  readonly sessions: Locator;
  readonly signOutOthers: Locator;
  readonly current: Locator;
  readonly newPassword: Locator;
  readonly confirm: Locator;
  readonly change: Locator;

  constructor(
    readonly page: Page,
    readonly m: AdminMessages,
  ) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.sessions = page.getByRole("table", { name: m.security.sessionsCaption });
    this.signOutOthers = page.getByRole("button", { name: m.security.signOutOthers, exact: true });
    this.current = page.getByLabel(m.security.current, { exact: true });
    this.newPassword = page.getByLabel(m.security.newPassword, { exact: true });
    this.confirm = page.getByLabel(m.security.confirm, { exact: true });
    this.change = page.getByRole("button", { name: m.security.passwordForm.submit, exact: true });
  }

  async goto() {
    await this.page.goto("/admin/security");
    await expect(this.heading).toHaveText(this.m.security.title);
  }

  async changePassword(current: string, next: string) {
    await this.page.goto("/admin/security/password");
    await this.current.fill(current);
    await this.newPassword.fill(next);
    await this.confirm.fill(next);
    await this.change.click();
  }
}

/** `/admin/audit`: the partner's audit log, filtered through its GET form. */
export class AuditPage {
  readonly heading: Locator;
  readonly table: Locator;

  constructor(
    readonly page: Page,
    readonly m: AdminMessages,
  ) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.table = page.getByRole("table", { name: m.audit.caption });
  }

  async goto(filters: Record<string, string> = {}) {
    await this.page.goto(`/admin/audit?${new URLSearchParams(filters).toString()}`);
    await expect(this.heading).toHaveText(this.m.audit.title);
  }

  /** The rows mentioning `text` (an operation id, a name). */
  rowsWith(text: string): Locator {
    return this.table.getByRole("row").filter({ hasText: text });
  }
}

/**
 * A one-time enrolment link's page, and the enrolment it opens: the password chosen, the QR code
 * (and the key in text), the first code, the recovery codes.
 */
export class EnrolmentLinkPages {
  readonly heading: Locator;
  readonly start: Locator;
  readonly invalid: Locator;
  readonly qr: Locator;
  readonly secret: Locator;
  readonly password: Locator;
  readonly confirm: Locator;
  readonly code: Locator;
  readonly activate: Locator;
  readonly recoveryTitle: Locator;

  constructor(
    readonly page: Page,
    readonly m: AdminMessages,
  ) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.start = page.getByRole("button", { name: m.security.linkContinue, exact: true });
    this.invalid = page.getByText(m.security.linkInvalid);
    this.qr = page.getByRole("img", { name: m.security.qrLabel });
    this.secret = page.getByTestId("totp-secret");
    this.password = page.getByLabel(m.security.newPassword, { exact: true });
    this.confirm = page.getByLabel(m.security.confirm, { exact: true });
    this.code = page.getByLabel(m.secondFactor.code, { exact: true });
    this.activate = page.getByRole("button", { name: m.security.enrolForm.submit, exact: true });
    this.recoveryTitle = page.getByText(m.security.enrolForm.recoveryTitle);
  }

  /** The key the page shows, as an authenticator app reads it. */
  async shownSecret(): Promise<string> {
    return ((await this.secret.textContent()) ?? "").replace(/\s+/g, "");
  }
}
