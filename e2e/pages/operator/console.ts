import { expect, type Locator, type Page } from "@playwright/test";
import { OPERATOR_MESSAGES, type OperatorMessages } from "@/lib/i18n/operator-messages";
import type { UiLanguage } from "../../support/text";

/** `/operator`: the platform operator's console, its frame and home. */
export class OperatorConsole {
  readonly m: OperatorMessages;
  readonly heading: Locator;
  readonly banner: Locator;
  readonly nav: Locator;
  readonly partnersLink: Locator;

  constructor(
    readonly page: Page,
    language: UiLanguage,
  ) {
    this.m = OPERATOR_MESSAGES[language];
    this.heading = page.getByRole("heading", { level: 1 });
    this.banner = page.getByRole("banner");
    this.nav = page.getByRole("navigation", { name: this.m.common.navLabel });
    this.partnersLink = page.getByRole("main").getByRole("link", { name: this.m.home.partners, exact: true });
  }

  async expectHome(name: string) {
    await expect(this.page).toHaveURL(/\/operator$/);
    await expect(this.heading).toHaveText(this.m.home.title);
    await expect(this.banner).toContainText(this.m.common.signedInAs(name));
  }
}
