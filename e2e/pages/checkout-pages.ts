import { expect, type FrameLocator, type Page } from "@playwright/test";
import { MESSAGES, type Messages } from "@/lib/i18n/messages";
import type { CustomerDetails } from "../support/test-data";
import type { UiLanguage } from "../support/text";
import { CustomerDetailsPage } from "./customer-details-page";
import { LanguageSwitcher } from "./language-switcher";
import { OffersPage } from "./offers-page";
import { SandboxProviderCheckoutPage } from "./sandbox-pages";
import { ShopPage } from "./shop-page";
import { CheckoutStatusPage } from "./status-page";

/**
 * The checkout as one customer sees it, in one language (design.md §3): the demo shop, the details
 * form, the offers, the sandbox's provider checkout and the status page. A language switch
 * mid-test: `checkout.in("en")` gives the same pages in the other language; a checkout embedded in
 * a partner's page: `checkout.within(frame)`.
 */
export class CheckoutPages {
  readonly m: Messages;
  readonly shop: ShopPage;
  readonly details: CustomerDetailsPage;
  readonly offers: OffersPage;
  readonly provider: SandboxProviderCheckoutPage;
  readonly status: CheckoutStatusPage;
  readonly languageSwitcher: LanguageSwitcher;

  constructor(
    readonly page: Page,
    readonly language: UiLanguage,
    readonly frame?: FrameLocator,
  ) {
    this.m = MESSAGES[language];
    this.shop = new ShopPage(page, this.m);
    this.details = new CustomerDetailsPage(page, language, frame);
    this.offers = new OffersPage(page, this.m, frame);
    // The provider's checkout is always a page of its own, at the top level.
    this.provider = new SandboxProviderCheckoutPage(page);
    this.status = new CheckoutStatusPage(page, this.m, frame);
    this.languageSwitcher = new LanguageSwitcher(page, this.m.common.switchLanguage);
  }

  in(language: UiLanguage): CheckoutPages {
    return new CheckoutPages(this.page, language, this.frame);
  }

  /** The checkout's pages inside a frame of a partner's page. */
  within(frame: FrameLocator): CheckoutPages {
    return new CheckoutPages(this.page, this.language, frame);
  }

  /** From the shop to the details form of a new session; answers the session's id. */
  async startAtShop(): Promise<string> {
    await this.shop.goto();
    const sessionId = await this.shop.payInInstallments();
    await expect(this.details.heading).toHaveText(this.m.form.title);
    return sessionId;
  }

  /** A new session with the customer's details sent: the offers page is showing. */
  async startWithDetails(details: CustomerDetails): Promise<string> {
    const sessionId = await this.startAtShop();
    await this.details.complete(details);
    await expect(this.offers.heading).toHaveText(this.m.offers.title);
    return sessionId;
  }

  /** Chooses a plan and expects the provider checkout (the sandbox's `paymentUrl`). */
  async chooseAndReachProvider(installments: number, company: string) {
    await this.offers.choose(installments, company);
    await expect(this.page).toHaveURL(/\/sandbox\/provider\/checkout\/\w+$/);
    await expect(this.provider.heading).toHaveText("Review and sign your plan");
  }
}
