import type { Locator, Page } from "@playwright/test";
import type { Messages } from "@/lib/i18n/messages";

/** What the home page `/` is in either form (the demo shop, or the service's page): its main part and heading. */
export abstract class HomePage {
  readonly main: Locator;
  readonly heading: Locator;

  constructor(
    readonly page: Page,
    readonly m: Messages,
  ) {
    this.main = page.getByRole("main");
    this.heading = page.getByRole("heading", { level: 1 });
  }

  async goto() {
    await this.page.goto("/");
  }
}
