import { expect, type FrameLocator, type Page } from "@playwright/test";
import { MESSAGES, type Messages } from "@/lib/i18n/messages";
import type { CheckoutSessionOptions, CheckoutSessionResource, CheckoutSessionsApi } from "../support/checkout-sessions";
import { aCustomer, type CustomerDetails } from "../support/test-data";
import type { UiLanguage } from "../support/text";
import { CustomerDetailsPage } from "./customer-details-page";
import { LanguageSwitcher } from "./language-switcher";
import { OffersPage } from "./offers-page";
import { SandboxProviderCheckoutPage } from "./sandbox-pages";
import { ShopPage } from "./shop-page";
import { CheckoutStatusPage } from "./status-page";

/**
 * The checkout as one customer sees it, in one language (docs/contributors/architecture.md, "The checkout as data moves"): the demo shop, the details
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

  readonly frame?: FrameLocator;
  /** The browser's language (its `locale`), which the provider's page follows; the checkout's by default. */
  readonly browserLanguage: UiLanguage;

  constructor(
    readonly page: Page,
    readonly language: UiLanguage,
    options: { frame?: FrameLocator; browserLanguage?: UiLanguage } = {},
  ) {
    const { frame } = options;
    this.frame = frame;
    this.browserLanguage = options.browserLanguage ?? language;
    this.m = MESSAGES[language];
    this.shop = new ShopPage(page, this.m);
    this.details = new CustomerDetailsPage(page, language, frame);
    this.offers = new OffersPage(page, this.m, frame);
    // The provider's checkout is always a page of its own, at the top level.
    this.provider = new SandboxProviderCheckoutPage(page, this.browserLanguage);
    this.status = new CheckoutStatusPage(page, this.m, frame);
    this.languageSwitcher = new LanguageSwitcher(page, this.m.common.switchLanguage);
  }

  in(language: UiLanguage): CheckoutPages {
    return new CheckoutPages(this.page, language, { frame: this.frame, browserLanguage: this.browserLanguage });
  }

  /** The checkout's pages inside a frame of a partner's page. */
  within(frame: FrameLocator): CheckoutPages {
    return new CheckoutPages(this.page, this.language, { frame, browserLanguage: this.browserLanguage });
  }

  /**
   * A session opened through the checkout sessions API (on the app at `origin`) whose customer
   * sent their details (the test customer's unless given: an e-mail carries the sandbox's
   * triggers) and chose the first plan: the provider's checkout is showing, the operation
   * CLIENT_REQUESTED. Answers the session's and the operation's ids.
   */
  async atProvider(
    api: CheckoutSessionsApi,
    reference: string,
    origin: string,
    customer: CustomerDetails = aCustomer(),
  ): Promise<{ sessionId: string; operationId: string }> {
    const session = await api.open({ reference, customer: null, returnUrl: `${origin}/`, locale: "en" });
    const { page, details, offers, provider } = this.in("en");
    await page.goto(`${origin}/checkout/${session.id}`);
    await details.fill(customer);
    await details.submit();
    await offers.chooseButtons.first().click();
    await expect(provider.signButton).toBeVisible();
    const { operation } = await api.read(session.id);
    expect(operation, "the details created an operation").toBeTruthy();
    return { sessionId: session.id, operationId: operation!.id };
  }

  /**
   * A session the partner's backend opened (the customer's details prefilled) whose customer sent
   * the details: the offers page is showing. Answers the session.
   */
  async detailsSent(api: CheckoutSessionsApi, options: CheckoutSessionOptions): Promise<CheckoutSessionResource> {
    const session = await api.open(options);
    await this.page.goto(session.url);
    await this.details.submit();
    await expect(this.page).toHaveURL(/\/offers$/);
    return session;
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

  /**
   * A session opened with the customer's data, taken to its end: its page (prefilled), the details
   * sent, 12 months with Financiera Olivo, signed at the provider; the status page says confirmed.
   */
  async completePrefilled(url: string, customer: CustomerDetails) {
    await this.page.goto(url);
    await expect(this.details.field("email")).toHaveValue(customer.email);
    await this.details.complete(customer);
    await expect(this.offers.heading).toHaveText(this.m.offers.title);
    await this.chooseAndReachProvider(12, "Financiera Olivo");
    await this.provider.sign();
    await this.status.expectState("confirmed");
  }

  /** Chooses a plan and expects the provider checkout (the sandbox's `paymentUrl`). */
  async chooseAndReachProvider(installments: number, company: string) {
    await this.offers.choose(installments, company);
    await expect(this.page).toHaveURL(/\/sandbox\/provider\/checkout\/\w+$/);
    await expect(this.provider.heading).toHaveText(this.provider.t.checkout.heading);
  }
}
