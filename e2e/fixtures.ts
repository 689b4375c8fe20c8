import { randomUUID } from "node:crypto";
import { test as base, expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";

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

type Fixtures = {
  homePage: HomePage;
  sandboxApi: SandboxApi;
  financingPage: SandboxFinancingPage;
  providerCheckoutPage: SandboxProviderCheckoutPage;
  sandboxResultPage: SandboxResultPage;
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
});

export { expect };
