import { randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { ADMIN_MESSAGES, type AdminMessages } from "@/lib/i18n/admin-messages";
import { MESSAGES, type Messages } from "@/lib/i18n/messages";

/*
 * Page objects for the partner back-office (`/admin`), and the sandbox calls its tests use to
 * set the scene: operations created and moved through the partner API sandbox at `/sandbox/v1`
 * and its control API, as a partner's own systems and its customers would move them.
 *
 * Selectors are roles and the UI's own words (lib/i18n/admin-messages.ts).
 */

/** Where the app says it lives (APP_URL): server actions only accept posts from this origin. */
export const APP_URL = `http://localhost:${Number(process.env.E2E_PORT ?? 3100)}`;

/** The sandbox's published demo staff accounts (README, "The back-office"). */
export const STAFF = {
  aurora: { email: "staff@viajes-aurora.example", password: "aurora-staff-demo", name: "Lucía Ortega", partner: "Viajes Aurora (demo)" },
  group: { email: "staff@grupo-demo.example", password: "grupo-staff-demo", name: "Marcos Vidal", partner: "Grupo Demo" },
} as const;
export type StaffAccount = (typeof STAFF)[keyof typeof STAFF];

export type AdminLanguage = keyof typeof ADMIN_MESSAGES;

/** A text as a RegExp that matches it literally. */
export function literal(text: string, flags = ""): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), flags);
}

/** Money as the back-office writes it in `language` (the same Intl options as lib/financing/money.ts). */
export function euros(cents: number, language: AdminLanguage): string {
  const locale = language === "es" ? "es-ES" : "en-GB";
  return new Intl.NumberFormat(locale, { style: "currency", currency: "EUR", useGrouping: "always" }).format(cents / 100);
}

/** A JSON amount (1234.5) as cents, from its decimal form. */
export function cents(amount: number): number {
  return Math.round(amount * 100);
}

// ---------------------------------------------------------------------------------------------
// The sandbox, as the partner's systems and its customers reach it

export const AGENCY_KEY = "fk_test_sandbox_agency_101";
export const GROUP_KEY = "fk_test_sandbox_group_1";

export interface SandboxOperation {
  id: string;
  externalId: string;
  status: string;
}

export interface SandboxRefundDetails {
  operationId: string;
  totalReserve: { amount: number; currency: string };
  managementFees: { amount: number; currency: string };
  fliinowCancellationFee: { amount: number; currency: string };
  fliinowCancellationFeePercentage: number;
  totalToRefund: { amount: number; currency: string };
}

/**
 * The sandbox's partner API and control API. Agency 101 is reached with its agency key, 102 with
 * the group key and the agency header (only the back-office's tests use 102, so its lists hold only
 * what they created).
 */
export class Sandbox {
  constructor(readonly request: APIRequestContext) {}

  headers(agency: 101 | 102 = 101): Record<string, string> {
    return agency === 101 ? { "X-Service-API-Key": AGENCY_KEY } : { "X-Service-API-Key": GROUP_KEY, "X-Service-Agency": String(agency) };
  }

  async waitUntilServed(): Promise<void> {
    await expect
      .poll(async () => (await this.request.get("/sandbox/v1/health", { headers: this.headers() })).status(), { timeout: 30_000 })
      .toBe(200);
  }

  /** A new GENERATED operation for a 1,234.50 EUR trip, with a unique booking reference. */
  async createOperation(options: { agency?: 101 | 102; email?: string; externalId?: string } = {}): Promise<SandboxOperation> {
    const externalId = options.externalId ?? `E2E-ADM-${randomUUID().slice(0, 8).toUpperCase()}`;
    const response = await this.request.post("/sandbox/v1/operations", {
      headers: this.headers(options.agency),
      data: {
        externalId,
        packageName: "Lisboa, 4 noches",
        packageTravel: true,
        travelersNumber: 2,
        totalPrice: 1234.5,
        client: {
          firstName: "Ana",
          lastName: "García",
          email: options.email ?? "ana@example.com",
          prefix: "+34",
          phone: "600123456",
          documentId: "12345678Z",
          documentValidityDate: "01-01-2035",
          gender: "FEMALE",
          birthDate: "15-05-1990",
          nationality: "ESP",
          address: "Calle Mayor 1",
          city: "Madrid",
          postalCode: "28013",
          countryCode: "ESP",
        },
        flights: [{ origin: "MAD", destination: "LIS", departureDate: "10-10-2035", returnDate: "14-10-2035" }],
      },
    });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()) as SandboxOperation;
  }

  /** The customer picks a plan (POST /financing): the operation becomes CLIENT_REQUESTED. */
  async requestFinancing(id: string): Promise<void> {
    const offers = await this.request.get(`/sandbox/v1/financing/${id}`, { headers: this.headers() });
    expect(offers.status()).toBe(200);
    const [first] = ((await offers.json()) as { financialOffers: { id: number }[] }).financialOffers;
    const started = await this.request.post("/sandbox/v1/financing", {
      headers: this.headers(),
      data: { operationIdentifier: id, financialOfferId: first!.id },
    });
    expect(started.status()).toBe(200);
    expect(await this.status(id)).toBe("CLIENT_REQUESTED");
  }

  /** The customer signs and the provider approves: CONFIRMED. */
  async confirm(id: string): Promise<void> {
    await this.requestFinancing(id);
    const decided = await this.request.post(`/sandbox/_control/operations/${id}/decision`, { headers: this.headers(), data: { decision: "approve" } });
    expect(decided.status()).toBe(200);
    expect(await this.status(id)).toBe("CONFIRMED");
  }

  /** Cancelled by the partner's own systems (straight through the API). */
  async cancel(id: string, agency: 101 | 102 = 101): Promise<void> {
    const response = await this.request.post(`/sandbox/v1/operations/${id}/cancel`, { headers: this.headers(agency), data: {} });
    expect(response.status()).toBe(200);
  }

  async status(id: string, agency: 101 | 102 = 101): Promise<string> {
    const response = await this.request.get(`/sandbox/v1/operations/${id}/status`, { headers: this.headers(agency) });
    expect(response.status()).toBe(200);
    return ((await response.json()) as { status: string }).status;
  }

  async refundDetails(id: string): Promise<SandboxRefundDetails> {
    const response = await this.request.get(`/sandbox/v1/operations/${id}/refund/details`, { headers: this.headers() });
    expect(response.status()).toBe(200);
    return (await response.json()) as SandboxRefundDetails;
  }

  /** The operation's history as the sandbox keeps it (statuses with their notes: the reasons). */
  async history(id: string): Promise<{ status: string; note?: string }[]> {
    const response = await this.request.get(`/sandbox/_control/operations/${id}`, { headers: this.headers() });
    expect(response.status()).toBe(200);
    return ((await response.json()) as { history: { status: string; note?: string }[] }).history;
  }

  /** The sandbox's test clock's day (yyyy-MM-dd): the operations' creation dates are on it. */
  async today(): Promise<string> {
    const response = await this.request.get("/sandbox/_control/clock", { headers: this.headers() });
    return ((await response.json()) as { now: string }).now.slice(0, 10);
  }
}

/** A booking opened by the demo partner's backend, as `POST /api/checkout-sessions` does, with the customer's data prefilled. */
export async function openCheckoutSession(request: APIRequestContext, reference: string): Promise<{ id: string; url: string }> {
  const response = await request.post("/api/checkout-sessions", {
    headers: { Authorization: "Bearer demo_partner_secret_sandbox_only" },
    data: {
      booking: {
        bookingReference: reference,
        packageName: "Oporto, 3 noches",
        travellers: 2,
        totalPrice: { amount: 987.65, currency: "EUR" },
        flights: [{ origin: "MAD", destination: "OPO", departureDate: "2035-05-01", returnDate: "2035-05-04" }],
      },
      customer: {
        firstName: "Carmen",
        lastName: "Ruiz Soto",
        email: "carmen@example.com",
        prefix: "+34",
        phone: "612345678",
        documentType: "DNI",
        documentId: "12345678Z",
        documentValidityDate: "2035-01-31",
        gender: "FEMALE",
        birthDate: "1985-03-14",
        nationality: "ESP",
        address: "Calle Mayor 1",
        city: "Madrid",
        postalCode: "28013",
        countryCode: "ESP",
      },
      returnUrl: `${APP_URL}/`,
      locale: "en",
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string; url: string };
}

/**
 * Sends this page's requests from an address of its own (X-Forwarded-For, which the sign-in's rate
 * limit reads), so a test's failed sign-ins never lock another test's, or a later run's.
 */
export async function useOwnAddress(page: Page): Promise<void> {
  const bytes = crypto.getRandomValues(new Uint8Array(2));
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": `198.18.${bytes[0]}.${bytes[1]}` });
}

// ---------------------------------------------------------------------------------------------
// Accessibility

const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

export async function expectNoAxeViolations(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const violations = results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    nodes: violation.nodes.map((node) => `${node.target.join(" ")}: ${node.failureSummary ?? ""}`),
  }));
  expect(violations, `axe violations on ${what} (${page.url()})`).toEqual([]);
}

// ---------------------------------------------------------------------------------------------
// Pages

/** `/admin/login` */
export class AdminLoginPage {
  readonly heading: Locator;
  readonly email: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly error: Locator;

  constructor(
    readonly page: Page,
    readonly m: AdminMessages,
  ) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.email = page.getByLabel(m.loginForm.email, { exact: true });
    this.password = page.getByLabel(m.loginForm.password, { exact: true });
    this.submit = page.getByRole("button", { name: m.loginForm.submit, exact: true });
    this.error = page.getByRole("alert").filter({ hasText: m.loginForm.summaryTitle });
  }

  async goto(next?: string) {
    await this.page.goto(next ? `/admin/login?next=${encodeURIComponent(next)}` : "/admin/login");
  }

  async expectShown() {
    await expect(this.page).toHaveURL(/\/admin\/login(\?|$)/);
    await expect(this.heading).toHaveText(this.m.login.title);
  }

  /** Sends the form and waits for the server's answer (an earlier error stays on screen until then). */
  async signIn(account: { email: string; password: string }) {
    await this.email.fill(account.email);
    await this.password.fill(account.password);
    const answered = this.page.waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).pathname === "/admin/login");
    await this.submit.click();
    await answered;
  }
}

/** What every signed-in page has: whose back-office, the sections, the agency switcher, sign-out. */
export class AdminShell {
  readonly banner: Locator;
  readonly nav: Locator;
  readonly agency: Locator;
  readonly switchAgencyButton: Locator;
  readonly signOutButton: Locator;

  constructor(
    readonly page: Page,
    readonly m: AdminMessages,
  ) {
    this.banner = page.getByRole("banner");
    this.nav = page.getByRole("navigation", { name: m.common.navLabel });
    this.agency = page.getByRole("combobox", { name: m.common.agencyLabel, exact: true });
    this.switchAgencyButton = page.getByRole("button", { name: m.common.switchAgency, exact: true });
    this.signOutButton = page.getByRole("button", { name: m.common.signOut, exact: true });
  }

  section(name: keyof AdminMessages["common"]["nav"]): Locator {
    return this.nav.getByRole("link", { name: this.m.common.nav[name], exact: true });
  }

  async switchAgency(name: string, id: number) {
    await this.agency.selectOption({ label: this.m.common.agencyOption(name, id) });
    await this.switchAgencyButton.click();
    await expect(this.agency).toHaveValue(String(id));
  }

  async signOut() {
    await this.signOutButton.click();
  }
}

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
      .filter({ has: this.page.locator("dt").filter({ hasText: new RegExp(`^${literal(term).source}$`) }) })
      .locator("dd");
  }
}

/** `/admin/simulator` */
export class SimulatorPage {
  readonly heading: Locator;
  readonly amount: Locator;
  readonly country: Locator;
  readonly submit: Locator;
  readonly results: Locator;
  readonly resultsHeading: Locator;
  readonly representativeExample: Locator;

  constructor(
    readonly page: Page,
    readonly m: AdminMessages,
    readonly customer: Messages,
  ) {
    this.heading = page.getByRole("heading", { level: 1, name: m.simulator.title });
    this.amount = page.getByLabel(m.simulator.amount, { exact: true });
    this.country = page.getByLabel(m.simulator.country, { exact: true });
    this.submit = page.getByRole("button", { name: m.simulator.submit, exact: true });
    this.results = page.locator("section[aria-labelledby=results-heading]");
    this.resultsHeading = page.locator("#results-heading");
    this.representativeExample = page.getByRole("region", { name: customer.offers.example.heading });
  }

  async goto() {
    await this.page.goto("/admin/simulator");
  }

  async simulate(amount: string, countryName?: string) {
    await this.amount.fill(amount);
    if (countryName) await this.country.selectOption({ label: countryName });
    await this.submit.click();
  }

  group(installments: number): Locator {
    return this.page.getByRole("region", { name: this.customer.offers.groupHeading(installments), exact: true });
  }

  plan(installments: number, company: string): Locator {
    return this.group(installments).getByRole("article", { name: this.customer.offers.provider(company), exact: true });
  }
}

/** `/admin/operations` */
export class OperationsPage {
  readonly heading: Locator;
  readonly reference: Locator;
  readonly search: Locator;
  readonly status: Locator;
  readonly from: Locator;
  readonly to: Locator;
  readonly size: Locator;
  readonly apply: Locator;
  readonly table: Locator;
  /** What a phone shows instead of the table: one card per operation. */
  readonly cards: Locator;
  readonly summary: Locator;
  readonly next: Locator;
  readonly previous: Locator;
  readonly pages: Locator;
  readonly exportLink: Locator;

  constructor(
    readonly page: Page,
    readonly m: AdminMessages,
  ) {
    const main = page.getByRole("main");
    this.heading = page.getByRole("heading", { level: 1, name: m.operations.title });
    this.reference = main.getByLabel(m.operations.reference, { exact: true });
    this.search = main.getByRole("button", { name: m.operations.search, exact: true });
    this.status = main.getByLabel(m.operations.status, { exact: true });
    this.from = main.getByLabel(m.operations.from, { exact: true });
    this.to = main.getByLabel(m.operations.to, { exact: true });
    this.size = main.getByLabel(m.operations.size, { exact: true });
    this.apply = main.getByRole("button", { name: m.operations.apply, exact: true });
    this.table = main.getByRole("table", { name: m.operations.caption });
    this.cards = main.getByRole("list", { name: m.operations.caption });
    this.summary = main.locator("#results-heading");
    this.pages = main.getByRole("navigation", { name: m.operations.pagesLabel });
    this.next = this.pages.getByRole("link", { name: m.operations.next, exact: true });
    this.previous = this.pages.getByRole("link", { name: m.operations.previous, exact: true });
    this.exportLink = main.getByRole("link", { name: m.operations.export, exact: true });
  }

  async goto(query = "") {
    await this.page.goto(`/admin/operations${query}`);
  }

  /** The booking references in the table, in order. */
  async references(): Promise<string[]> {
    return this.table.locator("tbody tr th").allInnerTexts();
  }

  row(reference: string): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByRole("link", { name: reference, exact: true }) });
  }

  async findByReference(reference: string) {
    await this.reference.fill(reference);
    await this.search.click();
  }
}

/** `/admin/operations/{id}` */
export class OperationPage {
  readonly heading: Locator;
  readonly statusCard: Locator;
  readonly amounts: Locator;
  readonly booking: Locator;
  readonly offers: Locator;
  readonly history: Locator;
  readonly webhooks: Locator;
  readonly notifications: Locator;
  readonly cancelSection: Locator;
  readonly reason: Locator;
  readonly cancelButton: Locator;
  readonly refundLink: Locator;

  constructor(
    readonly page: Page,
    readonly m: AdminMessages,
  ) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.statusCard = page.getByRole("region", { name: m.operation.statusHeading, exact: true });
    this.amounts = page.getByRole("region", { name: m.operation.amountsHeading, exact: true });
    this.booking = page.getByRole("region", { name: m.operation.bookingHeading, exact: true });
    this.offers = page.getByRole("table", { name: m.operation.offersCaption });
    this.history = page.getByRole("table", { name: m.operation.historyCaption });
    this.webhooks = page.getByRole("table", { name: m.operation.webhooksCaption });
    this.notifications = page.getByRole("table", { name: m.operation.notificationsCaption });
    this.cancelSection = page.getByRole("region", { name: m.operation.cancelHeading, exact: true });
    this.reason = this.cancelSection.getByLabel(m.common.reasonLabel, { exact: true });
    this.cancelButton = page.getByRole("button", { name: m.cancelForm.submit, exact: true });
    this.refundLink = page.getByRole("link", { name: m.operation.refundLink, exact: true });
  }

  async goto(id: string) {
    await this.page.goto(`/admin/operations/${id}`);
  }

  async expectOperation(reference: string) {
    await expect(this.heading).toHaveText(this.m.operation.title(reference));
  }

  /** The status badge's code (the API's own word: GENERATED, CANCELLED…). */
  async expectStatus(status: string) {
    await expect(this.statusCard.locator("code").first()).toHaveText(status);
  }

  async cancel(reason: string) {
    await this.reason.fill(reason);
    await this.cancelButton.click();
  }
}

/** `/admin/operations/{id}/refund` */
export class RefundPage {
  readonly heading: Locator;
  readonly stepHeading: Locator;
  readonly agencyFee: Locator;
  readonly providerFee: Locator;
  readonly reason: Locator;
  readonly liveTotal: Locator;
  readonly review: Locator;
  readonly confirm: Locator;
  readonly change: Locator;

  constructor(
    readonly page: Page,
    readonly m: AdminMessages,
  ) {
    const f = m.refundForm;
    this.heading = page.getByRole("heading", { level: 1 });
    this.stepHeading = page.locator("#refund-step-heading");
    this.agencyFee = page.getByLabel(f.agencyFee, { exact: true });
    this.providerFee = page.getByLabel(f.providerFee, { exact: true });
    this.reason = page.getByLabel(m.common.reasonLabel, { exact: true });
    this.liveTotal = page.getByRole("status").filter({ hasText: f.liveTotal.split("{")[0]!.trim() });
    this.review = page.getByRole("button", { name: f.review, exact: true });
    this.confirm = page.getByRole("button", { name: f.confirm, exact: true });
    this.change = page.getByRole("button", { name: f.change, exact: true });
  }

  /** A row of the breakdown table by its label, e.g. "Total reserve". */
  amount(label: string | RegExp): Locator {
    return this.page
      .getByRole("row")
      .filter({ has: this.page.getByRole("rowheader", { name: label, exact: typeof label === "string" }) })
      .getByRole("cell");
  }
}

/** The back-office's pages in one language, with the sandbox to set the scene. */
export class Backoffice {
  readonly m: AdminMessages;
  readonly customer: Messages;
  readonly login: AdminLoginPage;
  readonly shell: AdminShell;
  readonly health: HealthPage;
  readonly simulator: SimulatorPage;
  readonly operations: OperationsPage;
  readonly operation: OperationPage;
  readonly refund: RefundPage;

  constructor(
    readonly page: Page,
    readonly language: AdminLanguage,
  ) {
    this.m = ADMIN_MESSAGES[language];
    this.customer = MESSAGES[language];
    this.login = new AdminLoginPage(page, this.m);
    this.shell = new AdminShell(page, this.m);
    this.health = new HealthPage(page, this.m);
    this.simulator = new SimulatorPage(page, this.m, this.customer);
    this.operations = new OperationsPage(page, this.m);
    this.operation = new OperationPage(page, this.m);
    this.refund = new RefundPage(page, this.m);
  }

  /** Signs in from the sign-in page and lands on the health page (or `next`). */
  async signIn(account: StaffAccount, next?: string) {
    await this.login.goto(next);
    await this.login.signIn(account);
    await expect(this.shell.signOutButton).toBeVisible();
    await expect(this.shell.banner).toContainText(account.partner);
  }

  /** An operation's page, reached the way staff do: by its booking reference. */
  async openByReference(reference: string) {
    await this.operations.goto();
    await this.operations.findByReference(reference);
    await this.operation.expectOperation(reference);
  }

  money(cents: number): string {
    return euros(cents, this.language);
  }
}

function languageOf(locale: string | undefined): AdminLanguage {
  return /^es\b/i.test(locale ?? "") ? "es" : "en";
}

type Fixtures = {
  sandbox: Sandbox;
  /** The back-office in the language of the browser's `locale`. */
  admin: Backoffice;
};

export const test = base.extend<Fixtures>({
  // The fixture callback is named `provide`, not `use`, so React's hook lint rule leaves it alone.
  sandbox: async ({ request }, provide) => {
    const sandbox = new Sandbox(request);
    await sandbox.waitUntilServed();
    await provide(sandbox);
  },
  admin: async ({ page, locale }, provide) => {
    await provide(new Backoffice(page, languageOf(locale)));
  },
});

export { expect };
