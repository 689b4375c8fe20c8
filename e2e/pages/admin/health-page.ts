import type { Locator, Page } from "@playwright/test";
import type { AdminMessages } from "@/lib/i18n/admin-messages";
import { literally } from "../../support/text";

/** `/admin`: the integration's health. */
export class HealthPage {
  readonly heading: Locator;

  constructor(
    readonly page: Page,
    readonly m: AdminMessages,
  ) {
    this.heading = page.getByRole("heading", { level: 1, name: m.health.title });
  }

  async goto() {
    await this.page.goto("/admin");
  }

  /** A figure of the page by its term ("Partner code" → "AURORA"). */
  value(term: string): Locator {
    return this.page
      .getByRole("main")
      .locator("dl > div")
      .filter({ has: this.page.locator("dt").filter({ hasText: new RegExp(`^${literally(term).source}$`) }) })
      .locator("dd");
  }
}
