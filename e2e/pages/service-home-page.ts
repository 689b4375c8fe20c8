import type { Locator, Page } from "@playwright/test";
import type { Messages } from "@/lib/i18n/messages";
import { HomePage } from "./home-page";
import { LanguageSwitcher } from "./language-switcher";

/** The home page `/` with the production partner API: what the service is, no demo shop. */
export class ServiceHomePage extends HomePage {
  readonly staffLink: Locator;
  readonly languages: LanguageSwitcher;

  constructor(page: Page, m: Messages) {
    super(page, m);
    this.staffLink = this.main.getByRole("link", { name: m.home.staffLink });
    this.languages = new LanguageSwitcher(page, m.common.switchLanguage);
  }
}
