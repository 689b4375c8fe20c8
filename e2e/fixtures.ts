import { test as base, expect, type Locator, type Page } from "@playwright/test";

/** The landing page, `/`. */
export class HomePage {
  readonly page: Page;
  readonly mainHeading: Locator;
  readonly main: Locator;

  constructor(page: Page) {
    this.page = page;
    this.main = page.getByRole("main");
    this.mainHeading = page.getByRole("heading", { level: 1 });
  }

  async goto() {
    await this.page.goto("/");
  }

  /** How many CSS pixels the document is wider than the viewport (0 when nothing scrolls sideways). */
  async horizontalOverflow(): Promise<number> {
    return this.page.evaluate(() => {
      const root = document.documentElement;
      return Math.max(root.scrollWidth, document.body.scrollWidth) - root.clientWidth;
    });
  }
}

type Fixtures = { homePage: HomePage };

export const test = base.extend<Fixtures>({
  // The fixture callback is named `provide`, not `use`, so React's hook lint rule leaves it alone.
  homePage: async ({ page }, provide) => {
    await provide(new HomePage(page));
  },
});

export { expect };
