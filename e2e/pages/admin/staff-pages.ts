import { expect, type Locator, type Page } from "@playwright/test";
import { STAFF_MESSAGES, type StaffMessages } from "@/lib/i18n/staff-messages";
import type { UiLanguage } from "../../support/text";
import { codeAt } from "./sign-in-page";

const TOTP_PERIOD_MS = 30_000;

/** `/admin/staff` and `/admin/staff/[id]`: a partner's administrators manage their staff. */
export class StaffPages {
  readonly s: StaffMessages;
  readonly heading: Locator;
  readonly table: Locator;
  readonly email: Locator;
  readonly name: Locator;
  readonly role: Locator;
  readonly canRefund: Locator;
  readonly invite: Locator;
  readonly invitation: Locator;
  readonly invitationLink: Locator;
  readonly status: Locator;
  readonly disable: Locator;
  readonly enable: Locator;
  readonly removeConfirm: Locator;
  readonly remove: Locator;
  readonly canDataRequests: Locator;
  readonly saveRole: Locator;
  /** On a member's page: the answer to resetting their second factor (a request, or its confirmation), and its form. */
  readonly reset: Locator;
  readonly resetCode: Locator;
  readonly resetSubmit: Locator;
  readonly confirmResetSubmit: Locator;

  constructor(
    readonly page: Page,
    language: UiLanguage,
  ) {
    this.s = STAFF_MESSAGES[language];
    const f = this.s.inviteForm;
    const u = this.s.member;
    this.heading = page.getByRole("heading", { level: 1 });
    this.table = page.getByRole("table", { name: this.s.staff.caption });
    this.email = page.getByLabel(f.email, { exact: true });
    this.name = page.getByLabel(f.name, { exact: true });
    this.role = page.getByLabel(f.role, { exact: true });
    this.canRefund = page.getByLabel(f.canRefund, { exact: true });
    this.invite = page.getByRole("button", { name: f.submit, exact: true });
    this.invitation = page.getByTestId("invitation-result");
    this.invitationLink = page.locator("#invitation-link");
    this.status = page.getByTestId("member-status");
    this.disable = page.getByRole("button", { name: u.disableSubmit, exact: true });
    this.enable = page.getByRole("button", { name: u.enableSubmit, exact: true });
    this.removeConfirm = page.getByLabel(u.removeConfirm, { exact: true });
    this.remove = page.getByRole("button", { name: u.removeSubmit, exact: true });
    this.canDataRequests = page.getByLabel(u.dataRequestsLabel, { exact: true });
    this.saveRole = page.getByRole("button", { name: u.roleSubmit, exact: true });
    this.reset = page.getByTestId("reset-link");
    this.resetCode = page.getByLabel(this.s.linkForm.code, { exact: true });
    this.resetSubmit = page.getByRole("button", { name: this.s.linkForm.reset, exact: true });
    this.confirmResetSubmit = page.getByRole("button", { name: this.s.linkForm.confirm, exact: true });
  }

  async goto() {
    await this.page.goto("/admin/staff");
    await expect(this.heading).toHaveText(this.s.staff.title);
  }

  row(text: string): Locator {
    return this.table.getByRole("row").filter({ hasText: text });
  }

  /** Invites someone by a link shown once; returns the link. */
  async inviteByLink(person: { email: string; name: string; role: "admin" | "agent"; canRefund: boolean }): Promise<string> {
    await this.email.fill(person.email);
    await this.name.fill(person.name);
    await this.role.selectOption(person.role);
    await this.canRefund.setChecked(person.canRefund);
    await this.invite.click();
    await expect(this.invitation).toBeVisible();
    return this.invitationLink.inputValue();
  }

  /** A member's page, from the list's "Manage" link. */
  async manage(name: string) {
    await this.row(name)
      .getByRole("link", { name: this.s.staff.manageLabel(name) })
      .click();
    await expect(this.heading).toContainText(name);
  }

  /**
   * On a member's page: sends the second-factor reset's form (`button`: the request or the
   * confirmation) with the acting administrator's own code, computed from their authenticator's
   * secret. A code is accepted once per account and step, and the sign-in may have used one: this
   * tries the steps the server accepts, oldest first, and waits for a new step when all three were
   * used. Ends once the form has given way to its answer.
   */
  async resetWithOwnCode(button: Locator, totpSecret: string) {
    for (let round = 0; round < 3; round++) {
      for (const offset of [-TOTP_PERIOD_MS, 0, TOTP_PERIOD_MS]) {
        await this.resetCode.fill(await codeAt(totpSecret, Date.now() + offset));
        const path = new URL(this.page.url()).pathname;
        const answered = this.page.waitForResponse(
          (response) => response.request().method() === "POST" && new URL(response.url()).pathname === path,
          { timeout: 30_000 },
        );
        await button.click();
        await answered;
        // Accepted: the answer replaces the form. Refused: the form comes back with an empty field
        // (remounted for each answer) under its error.
        await expect
          .poll(
            async () => (await this.reset.count()) > 0 || (await this.resetCode.inputValue({ timeout: 1000 }).catch(() => "?")) === "",
            {
              timeout: 20_000,
            },
          )
          .toBe(true);
        if ((await this.reset.count()) > 0) return;
        await expect(this.page.getByRole("alert").filter({ hasText: this.s.linkForm.summaryTitle })).toContainText(
          this.s.linkForm.errors.code_replayed,
        );
      }
      await this.page.waitForTimeout(TOTP_PERIOD_MS - (Date.now() % TOTP_PERIOD_MS) + 1000);
    }
    throw new Error("no code of the administrator's was accepted in three steps");
  }

  /** On a member's page: grants (or takes back) the data requests permission. */
  async setDataRequests(granted: boolean) {
    await this.canDataRequests.setChecked(granted);
    await this.saveRole.click();
    await expect(this.page).toHaveURL(/done=changed/);
  }
}
