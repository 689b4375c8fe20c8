import type { Locator, Page } from "@playwright/test";
import type { Messages } from "@/lib/i18n/messages";
import { LanguageSwitcher } from "./language-switcher";

/** The home page `/` with the production partner API: what the service is, no demo shop. */
export class ServiceHomePage {
  readonly main: Locator;
  readonly heading: Locator;
  readonly staffLink: Locator;
  readonly languages: LanguageSwitcher;

  constructor(
    readonly page: Page,
    readonly m: Messages,
  ) {
    this.main = page.getByRole("main");
    this.heading = page.getByRole("heading", { level: 1 });
    this.staffLink = this.main.getByRole("link", { name: m.home.staffLink });
    this.languages = new LanguageSwitcher(page, m.common.switchLanguage);
  }

  async goto() {
    await this.page.goto("/");
  }
}
