import type { Locator, Page } from "@playwright/test";
import { PAGE_TEXT, type PageText } from "@/lib/sandbox/pages/text";
import { horizontalOverflow } from "../support/layout";
import type { UiLanguage } from "../support/text";

/*
 * The sandbox's hosted pages (docs/contributors/architecture.md, "The sandbox"): what the financing partner and its providers show the
 * customer, in the browser's language (Accept-Language; `?lang=` overrides it): `language` is the
 * browser's, not the checkout's (whose switch is a cookie of the app's).
 */

/** What every sandbox page has: its heading, and whether it fits a phone's width. */
class SandboxPage {
  readonly heading: Locator;
  readonly t: PageText;

  constructor(
    readonly page: Page,
    readonly language: UiLanguage = "en",
  ) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.t = PAGE_TEXT[language];
  }

  horizontalOverflow(): Promise<number> {
    return horizontalOverflow(this.page);
  }
}

/** The sandbox's `financingUrl` page: the customer picks an installment plan. */
export class SandboxFinancingPage extends SandboxPage {
  readonly plans = this.page.getByRole("group", { name: this.t.financing.plans });
  readonly alert = this.page.getByRole("alert");
  readonly continueButton = this.page.getByRole("button", { name: this.t.financing.continue });

  async goto(financingUrl: string) {
    await this.page.goto(financingUrl);
  }

  /** A plan's radio, by its accessible name, e.g. "Financiera Olivo: 12 monthly installments of 108,73 €". */
  plan(name: string | RegExp): Locator {
    return this.plans.getByRole("radio", { name });
  }

  async choose(name: string | RegExp) {
    await this.plan(name).check();
    await this.continueButton.click();
  }
}

/** The provider checkout at `paymentUrl`: the plan to review, then sign or decline. */
export class SandboxProviderCheckoutPage extends SandboxPage {
  readonly provider = this.page.getByRole("banner");
  readonly schedule = this.page.getByRole("table", { name: this.t.schedule.caption });
  readonly signButton = this.page.getByRole("button", { name: this.t.checkout.sign });
  readonly declineButton = this.page.getByRole("button", { name: this.t.checkout.decline });

  /** One row per month of the schedule ("Month 1" ... "Month n"). */
  months(): Locator {
    return this.schedule.getByRole("rowheader", { name: new RegExp(`^${this.t.schedule.month} \\d+`) });
  }

  async sign() {
    await this.signButton.click();
  }

  async decline() {
    await this.declineButton.click();
  }
}

/** The sandbox's default result page, where the customer lands when the partner gave no redirect URLs. */
export class SandboxResultPage extends SandboxPage {}

/** The sandbox's hosted pages, in the order a customer meets them. */
export class SandboxPages {
  readonly financing: SandboxFinancingPage;
  readonly provider: SandboxProviderCheckoutPage;
  readonly result: SandboxResultPage;

  constructor(
    readonly page: Page,
    readonly language: UiLanguage = "en",
  ) {
    this.financing = new SandboxFinancingPage(page, language);
    this.provider = new SandboxProviderCheckoutPage(page, language);
    this.result = new SandboxResultPage(page, language);
  }
}
