import { expect, type Locator, type Page } from "@playwright/test";
import type { AdminMessages } from "@/lib/i18n/admin-messages";

/** What every signed-in page has: whose back-office, the sections, the agency switcher, sign-out. */
export class AdminShell {
  readonly banner: Locator;
  readonly nav: Locator;
  readonly agency: Locator;
  readonly switchAgencyButton: Locator;
  readonly signOutButton: Locator;

  constructor(
    readonly page: Page,
    readonly m: AdminMessages,
  ) {
    this.banner = page.getByRole("banner");
    this.nav = page.getByRole("navigation", { name: m.common.navLabel });
    this.agency = page.getByRole("combobox", { name: m.common.agencyLabel, exact: true });
    this.switchAgencyButton = page.getByRole("button", { name: m.common.switchAgency, exact: true });
    this.signOutButton = page.getByRole("button", { name: m.common.signOut, exact: true });
  }

  section(name: keyof AdminMessages["common"]["nav"]): Locator {
    return this.nav.getByRole("link", { name: this.m.common.nav[name], exact: true });
  }

  async switchAgency(name: string, id: number) {
    await this.agency.selectOption({ label: this.m.common.agencyOption(name, id) });
    await this.switchAgencyButton.click();
    await expect(this.agency).toHaveValue(String(id));
  }

  /** Signs out and waits for the sign-in page (the answer clears the cookie: nothing may be set before it lands). */
  async signOut() {
    await this.signOutButton.click();
    await this.page.waitForURL(/\/admin\/login(\?|$)/);
  }
}
