import { randomUUID } from "node:crypto";
import { test as base, expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { MESSAGES, type Messages } from "@/lib/i18n/messages";

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

/** How many CSS pixels a page's document is wider than the viewport (0 when nothing scrolls sideways). */
async function documentOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const root = document.documentElement;
    return Math.max(root.scrollWidth, document.body.scrollWidth) - root.clientWidth;
  });
}

// ---------------------------------------------------------------------------------------------
// The sandbox of the partner API, served by the app under /sandbox

/** The sandbox's agency key with providers configured (design.md §6); sandbox-only, not a secret. */
export const SANDBOX_AGENCY_KEY = "fk_test_sandbox_agency_101";

export interface SandboxOperationCreated {
  id: string;
  externalId: string;
  status: string;
  financingUrl: string;
}

/** The partner API sandbox, called the way a partner's backend does (key header, JSON). */
export class SandboxApi {
  readonly request: APIRequestContext;

  constructor(request: APIRequestContext) {
    this.request = request;
  }

  private headers() {
    return { "X-Service-API-Key": SANDBOX_AGENCY_KEY };
  }

  /** Waits for the app to serve the sandbox (the web server may still be starting its routes). */
  async waitUntilServed(): Promise<void> {
    await expect
      .poll(async () => (await this.request.get("/sandbox/v1/health", { headers: this.headers() })).status(), {
        message: "GET /sandbox/v1/health should answer 200: is the sandbox mounted in the app?",
        timeout: 30_000,
      })
      .toBe(200);
  }

  /**
   * A new operation for a trip of 1,234.50 EUR, with a unique externalId. No redirect URLs unless
   * given, so the customer ends on the sandbox's own result pages.
   */
  async createOperation(overrides: { email?: string; successRedirectUrl?: string; errorRedirectUrl?: string } = {}) {
    const { email = "ana@example.com", ...redirects } = overrides;
    const response = await this.request.post("/sandbox/v1/operations", {
      headers: this.headers(),
      data: {
        externalId: `e2e-${randomUUID()}`,
        packageName: "Lisbon city break",
        packageTravel: true,
        travelersNumber: 2,
        totalPrice: 1234.5,
        ...redirects,
        client: {
          firstName: "Ana",
          lastName: "García",
          email,
          prefix: "+34",
          phone: "600123456",
          documentId: "12345678Z",
          documentValidityDate: "01-01-2030",
          gender: "FEMALE",
          birthDate: "15-05-1990",
          nationality: "ESP",
          address: "Calle Mayor 1",
          city: "Madrid",
          postalCode: "28013",
          countryCode: "ESP",
        },
        flights: [{ origin: "MAD", destination: "LIS", departureDate: "10-10-2030", returnDate: "14-10-2030" }],
      },
    });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()) as SandboxOperationCreated;
  }

  /** The operation's status, from GET /operations/{id}/status: what a partner trusts. */
  async status(id: string): Promise<string> {
    const response = await this.request.get(`/sandbox/v1/operations/${id}/status`, { headers: this.headers() });
    expect(response.status()).toBe(200);
    return ((await response.json()) as { status: string }).status;
  }
}

/** The sandbox's `financingUrl` page: the customer picks an installment plan. */
export class SandboxFinancingPage {
  readonly page: Page;
  readonly heading: Locator;
  readonly plans: Locator;
  readonly alert: Locator;
  readonly continueButton: Locator;

  constructor(page: Page) {
    this.page = page;
    this.heading = page.getByRole("heading", { level: 1 });
    this.plans = page.getByRole("group", { name: "Installment plans" });
    this.alert = page.getByRole("alert");
    this.continueButton = page.getByRole("button", { name: "Continue to the provider" });
  }

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

  horizontalOverflow(): Promise<number> {
    return documentOverflow(this.page);
  }
}

/** The provider checkout at `paymentUrl`: the plan to review, then sign or decline. */
export class SandboxProviderCheckoutPage {
  readonly page: Page;
  readonly heading: Locator;
  readonly provider: Locator;
  readonly schedule: Locator;
  readonly signButton: Locator;
  readonly declineButton: Locator;

  constructor(page: Page) {
    this.page = page;
    this.heading = page.getByRole("heading", { level: 1 });
    this.provider = page.getByRole("banner");
    this.schedule = page.getByRole("table", { name: "Payment schedule" });
    this.signButton = page.getByRole("button", { name: "Sign and accept" });
    this.declineButton = page.getByRole("button", { name: "Decline" });
  }

  /** One row per month of the schedule ("Month 1" ... "Month n"). */
  months(): Locator {
    return this.schedule.getByRole("rowheader", { name: /^Month \d+/ });
  }

  async sign() {
    await this.signButton.click();
  }

  async decline() {
    await this.declineButton.click();
  }

  horizontalOverflow(): Promise<number> {
    return documentOverflow(this.page);
  }
}

/** The sandbox's default result page, where the customer lands when the partner gave no redirect URLs. */
export class SandboxResultPage {
  readonly page: Page;
  readonly heading: Locator;

  constructor(page: Page) {
    this.page = page;
    this.heading = page.getByRole("heading", { level: 1 });
  }
}


// ---------------------------------------------------------------------------------------------
// The checkout, as a customer goes through it: the demo shop, the details form, the offers, the
// sandbox provider checkout and the status page (design.md §3).

/**
 * Where the app says it lives (APP_URL, by default `http://localhost:$PORT`): the partner API sends
 * the customer back there after the provider, and the demo shop's return URL is there. Checkout
 * tests browse this origin, as a customer does, so the language cookie goes with them all the way.
 */
export const APP_URL = `http://localhost:${Number(process.env.E2E_PORT ?? 3100)}`;

/** The demo partner's name, as its checkout header and its "Back to …" links say it. */
export const DEMO_PARTNER_NAME = "Viajes Aurora (demo)";

export type CheckoutLanguage = keyof typeof MESSAGES;

/** The customer's details as the form takes them (dates yyyy-MM-dd, countries by their code). */
export interface CustomerDetails {
  firstName: string;
  lastName: string;
  email: string;
  prefix: string;
  phone: string;
  documentType: "DNI" | "NIE" | "PASSPORT";
  documentId: string;
  documentValidityDate: string;
  gender: "FEMALE" | "MALE";
  birthDate: string;
  nationality: string;
  address: string;
  city: string;
  postalCode: string;
  countryCode: string;
}

/** A day `years` years (and `days` days) away from today (UTC), as yyyy-MM-dd. */
export function isoDayFromToday({ years = 0, days = 0 }: { years?: number; days?: number }): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear() + years, now.getUTCMonth(), now.getUTCDate() + days)).toISOString().slice(0, 10);
}

/** An adult Spanish customer with a valid DNI: everything the form asks for. */
export function aCustomer(overrides: Partial<CustomerDetails> = {}): CustomerDetails {
  return {
    firstName: "Ana",
    lastName: "García López",
    email: "ana@example.com",
    prefix: "+34",
    phone: "612345678",
    documentType: "DNI",
    documentId: "12345678Z",
    documentValidityDate: isoDayFromToday({ years: 5 }),
    gender: "FEMALE",
    birthDate: "1990-07-04",
    nationality: "ESP",
    address: "Calle Mayor 1, 3º B",
    city: "Madrid",
    postalCode: "28013",
    countryCode: "ESP",
    ...overrides,
  };
}

/** The country names the form's selects show, by ISO 3166-1 alpha-3 code (only the ones used here). */
const COUNTRY_NAMES: Record<string, Record<CheckoutLanguage, string>> = {
  ESP: { es: "España", en: "Spain" },
  PRT: { es: "Portugal", en: "Portugal" },
};

function countryName(code: string, language: CheckoutLanguage): string {
  const name = COUNTRY_NAMES[code]?.[language];
  if (!name) throw new Error(`Add ${code} to COUNTRY_NAMES in e2e/fixtures.ts`);
  return name;
}

/** A RegExp matching `text` literally. */
export function literally(text: string, flags = ""): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), flags);
}

/** The demo shop at `/`: a travel agency's page whose "Pay in installments" opens a checkout session. */
export class ShopPage {
  readonly page: Page;
  readonly m: Messages;
  readonly heading: Locator;
  readonly payButton: Locator;
  /** The notice shown when the customer comes back from the checkout. */
  readonly returnNotice: Locator;

  constructor(page: Page, m: Messages) {
    this.page = page;
    this.m = m;
    this.heading = page.getByRole("heading", { level: 1 });
    this.payButton = page.getByRole("main").getByRole("button", { name: m.shop.payButton });
    this.returnNotice = page.getByRole("main").locator("div").filter({ has: page.getByText(m.shop.outcomeHeading, { exact: true }) }).last();
  }

  async goto() {
    await this.page.goto("/");
  }

  /** Opens a checkout session for the sample trip; answers its id, read from the page's URL. */
  async payInInstallments(): Promise<string> {
    await this.payButton.click();
    await expect(this.page).toHaveURL(/\/checkout\/cs_[\w-]+$/);
    return new URL(this.page.url()).pathname.split("/")[2]!;
  }
}

/** The languages the switcher offers, named in themselves. */
const LANGUAGE_NAMES: Record<CheckoutLanguage, string> = { es: "Español", en: "English" };

/** The language switcher in a page's header (the shop's and the checkout's). */
export class LanguageSwitcher {
  readonly page: Page;
  readonly m: Messages;

  constructor(page: Page, m: Messages) {
    this.page = page;
    this.m = m;
  }

  /** The button that switches to `language`: "Cambiar idioma: English". */
  button(language: CheckoutLanguage): Locator {
    return this.page.getByRole("button", { name: `${this.m.common.switchLanguage} ${LANGUAGE_NAMES[language]}` });
  }
}

/** `/checkout/{id}`: the booking and the customer's details. */
export class CustomerDetailsPage {
  readonly page: Page;
  readonly language: CheckoutLanguage;
  readonly m: Messages;
  readonly heading: Locator;
  readonly continueButton: Locator;
  readonly errorSummary: Locator;
  readonly bookingSummary: Locator;

  constructor(page: Page, language: CheckoutLanguage) {
    this.page = page;
    this.language = language;
    this.m = MESSAGES[language];
    const m = this.m;
    this.heading = page.getByRole("heading", { level: 1 });
    this.continueButton = page.getByRole("button", { name: m.form.submit, exact: true });
    // The summary is the box its heading names ("Revisa estos datos"). It has no role of its own
    // to select it by (a div with aria-labelledby), so it is found by that label.
    this.errorSummary = page.locator("[aria-labelledby=error-summary-title]");
    this.bookingSummary = page.getByRole("region", { name: m.booking.heading });
  }

  async goto(sessionId: string) {
    await this.page.goto(`/checkout/${sessionId}`);
  }

  /** A text field, a date field or a select, by its label. */
  field(name: Exclude<keyof CustomerDetails, "gender">): Locator {
    return this.page.getByLabel(this.m.form.labels[name], { exact: true });
  }

  /** The gender radios' group (its legend is its name). */
  get genderGroup(): Locator {
    return this.page.getByRole("radiogroup", { name: this.m.form.labels.gender });
  }

  genderRadio(gender: CustomerDetails["gender"]): Locator {
    return this.genderGroup.getByRole("radio", { name: this.m.form.genders[gender], exact: true });
  }

  /** Fills what is given, the way a customer does: typing, picking options by their names. */
  async fill(details: Partial<CustomerDetails>) {
    for (const [name, value] of Object.entries(details) as [keyof CustomerDetails, string][]) {
      if (name === "gender") await this.genderRadio(value as CustomerDetails["gender"]).check();
      else if (name === "documentType") await this.field(name).selectOption({ label: this.m.form.documentTypes[value as CustomerDetails["documentType"]] });
      else if (name === "nationality" || name === "countryCode") await this.field(name).selectOption({ label: countryName(value, this.language) });
      else await this.field(name).fill(value);
    }
  }

  async submit() {
    await this.continueButton.click();
  }

  /** Fills every field and sends them; the offers page comes next. */
  async complete(details: CustomerDetails) {
    await this.fill(details);
    await this.submit();
    await expect(this.page).toHaveURL(/\/checkout\/cs_[\w-]+\/offers$/);
  }

  /** The error summary's link to a field, by the field's message. */
  summaryLink(message: string): Locator {
    return this.errorSummary.getByRole("link", { name: message, exact: true });
  }
}

/** `/checkout/{id}/offers`: the plans, grouped by their installments, and the representative example. */
export class OffersPage {
  readonly page: Page;
  readonly m: Messages;
  readonly heading: Locator;
  readonly representativeExample: Locator;
  readonly refusedNotice: Locator;
  readonly warning: Locator;

  constructor(page: Page, m: Messages) {
    this.page = page;
    this.m = m;
    this.heading = page.getByRole("heading", { level: 1 });
    this.representativeExample = page.getByRole("region", { name: m.offers.example.heading });
    this.refusedNotice = page.getByRole("alert").filter({ hasText: m.offers.refusedNotice });
    this.warning = page.getByRole("main").getByText(m.offers.warning, { exact: true }).first();
  }

  async goto(sessionId: string) {
    await this.page.goto(`/checkout/${sessionId}/offers`);
  }

  /** The section of the plans with `installments` monthly installments. */
  group(installments: number): Locator {
    return this.page.getByRole("region", { name: this.m.offers.groupHeading(installments), exact: true });
  }

  /** A plan's card ("With Financiera Olivo"), in its group. */
  plan(installments: number, company: string): Locator {
    return this.group(installments).getByRole("article", { name: this.m.offers.provider(company), exact: true });
  }

  /**
   * The plan's "Choose this plan" button, whose accessible name says which plan it is: "Elegir este
   * plan: 12 cuotas con Financiera Olivo" (Chromium puts a space before the visually hidden part).
   */
  chooseButton(installments: number, company: string): Locator {
    const context = this.m.offers.chooseContext(installments, company);
    return this.page.getByRole("button", { name: new RegExp(`^${literally(this.m.offers.choose).source}\\s*${literally(context.trim()).source}$`) });
  }

  async choose(installments: number, company: string) {
    await this.chooseButton(installments, company).click();
  }
}

/** `/checkout/{id}/status`: what happened, and the way on (back to the partner, or to the provider). */
export class CheckoutStatusPage {
  readonly page: Page;
  readonly m: Messages;
  readonly heading: Locator;
  readonly backToPartner: Locator;
  readonly payAnotherWay: Locator;
  readonly checkAgain: Locator;

  constructor(page: Page, m: Messages) {
    this.page = page;
    this.m = m;
    this.heading = page.getByRole("heading", { level: 1 });
    this.backToPartner = page.getByRole("main").getByRole("link", { name: m.common.backToPartner(DEMO_PARTNER_NAME), exact: true });
    this.payAnotherWay = page.getByRole("main").getByRole("link", { name: m.common.payAnotherWay(DEMO_PARTNER_NAME), exact: true });
    this.checkAgain = page.getByRole("main").getByRole("link", { name: m.common.checkAgain, exact: true });
  }

  async goto(sessionId: string) {
    await this.page.goto(`/checkout/${sessionId}/status`);
  }

  /** The page's words for a state: its heading and its explanation. */
  async expectState(state: keyof Messages["status"]["states"]) {
    const text = this.m.status.states[state];
    await expect(this.page).toHaveURL(/\/checkout\/cs_[\w-]+\/status$/);
    await expect(this.heading).toHaveText(text.title);
    await expect(this.page.getByRole("main").getByText(text.body, { exact: true })).toBeVisible();
  }
}

/**
 * The whole checkout as one customer sees it, in one language: the page objects of each step. A
 * language switch mid-test: `checkout.in("en")` gives the same pages in the other language.
 */
export class CheckoutPages {
  readonly page: Page;
  readonly language: CheckoutLanguage;
  readonly m: Messages;
  readonly shop: ShopPage;
  readonly details: CustomerDetailsPage;
  readonly offers: OffersPage;
  readonly provider: SandboxProviderCheckoutPage;
  readonly status: CheckoutStatusPage;
  readonly languageSwitcher: LanguageSwitcher;

  constructor(page: Page, language: CheckoutLanguage) {
    this.page = page;
    this.language = language;
    this.m = MESSAGES[language];
    this.shop = new ShopPage(page, this.m);
    this.details = new CustomerDetailsPage(page, language);
    this.offers = new OffersPage(page, this.m);
    this.provider = new SandboxProviderCheckoutPage(page);
    this.status = new CheckoutStatusPage(page, this.m);
    this.languageSwitcher = new LanguageSwitcher(page, this.m);
  }

  in(language: CheckoutLanguage): CheckoutPages {
    return new CheckoutPages(this.page, language);
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

/**
 * The language the checkout speaks to a browser with this `locale` option: English for `en-*`,
 * Spanish otherwise. With no locale set, Playwright's Chromium asks for en-US.
 */
function languageOf(locale: string | undefined): CheckoutLanguage {
  return /^en\b/i.test(locale ?? "en-US") ? "en" : "es";
}

type Fixtures = {
  homePage: HomePage;
  sandboxApi: SandboxApi;
  financingPage: SandboxFinancingPage;
  providerCheckoutPage: SandboxProviderCheckoutPage;
  sandboxResultPage: SandboxResultPage;
  /** The checkout's pages in the language of the browser's `locale` (Spanish unless it asks for English). */
  checkout: CheckoutPages;
};

export const test = base.extend<Fixtures>({
  // The fixture callback is named `provide`, not `use`, so React's hook lint rule leaves it alone.
  homePage: async ({ page }, provide) => {
    await provide(new HomePage(page));
  },
  sandboxApi: async ({ request }, provide) => {
    const api = new SandboxApi(request);
    await api.waitUntilServed();
    await provide(api);
  },
  financingPage: async ({ page }, provide) => {
    await provide(new SandboxFinancingPage(page));
  },
  providerCheckoutPage: async ({ page }, provide) => {
    await provide(new SandboxProviderCheckoutPage(page));
  },
  sandboxResultPage: async ({ page }, provide) => {
    await provide(new SandboxResultPage(page));
  },
  checkout: async ({ page, locale }, provide) => {
    await provide(new CheckoutPages(page, languageOf(locale)));
  },
});

export { expect };
