import { expect, type Locator, type Page } from "@playwright/test";
import { STAFF_MESSAGES, type StaffMessages } from "@/lib/i18n/staff-messages";
import type { UiLanguage } from "../../support/text";

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

  /** On a member's page: grants (or takes back) the data requests permission. */
  async setDataRequests(granted: boolean) {
    await this.canDataRequests.setChecked(granted);
    await this.saveRole.click();
    await expect(this.page).toHaveURL(/done=changed/);
  }
}
