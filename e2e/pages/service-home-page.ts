import type { Locator } from "@playwright/test";
import { HomePage } from "./home-page";
import { LanguageSwitcher } from "./language-switcher";

/** The home page `/` with the production partner API: what the service is, no demo shop. */
export class ServiceHomePage extends HomePage {
  readonly staffLink: Locator = this.main.getByRole("link", { name: this.m.home.staffLink });
  readonly languages = new LanguageSwitcher(this.page, this.m.common.switchLanguage);
}
