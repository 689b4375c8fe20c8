import { DataRequestsPage } from "./data-requests-page";
import { expect, type Browser, type Cookie, type Page } from "@playwright/test";
import { ADMIN_MESSAGES, type AdminMessages } from "@/lib/i18n/admin-messages";
import { MESSAGES, type Messages } from "@/lib/i18n/messages";
import { APP_URL, type StaffAccount } from "../../support/app";
import { euros, type UiLanguage } from "../../support/text";
import { HealthPage } from "./health-page";
import { NotificationsPage } from "./notifications-page";
import { OperationPage } from "./operation-page";
import { OperationsPage } from "./operations-page";
import { OverviewSection } from "./overview";
import { PaymentLinkPages } from "./payment-link-pages";
import { RefundPage } from "./refund-page";
import { AdminShell } from "./shell";
import { AdminSignInPage } from "./sign-in-page";
import { SimulatorPage } from "./simulator-page";
import { ThemePage } from "./theme-page";

/**
 * Sessions signed in with both factors, per account, for this worker's later tests. A TOTP code is
 * accepted once per account and 30-second step, so signing in afresh for each of dozens of tests
 * would mostly wait for the next code; tests that are about the sign-in itself use the sign-in page.
 */
const signedIn = new Map<string, Cookie>();

/**
 * The partner back-office (`/admin`) in one language: its pages, found by roles and the UI's own
 * words (lib/i18n/admin-messages.ts).
 */
export class Backoffice {
  readonly m: AdminMessages;
  /** The checkout's words in the same language (the simulator quotes plans as the customer sees them). */
  readonly customer: Messages;
  readonly login: AdminSignInPage;
  readonly shell: AdminShell;
  readonly health: HealthPage;
  /** The home's overview (the funnel and the daily volumes), above the health figures. */
  readonly overview: OverviewSection;
  readonly simulator: SimulatorPage;
  readonly operations: OperationsPage;
  readonly operation: OperationPage;
  readonly refund: RefundPage;
  readonly theme: ThemePage;
  readonly notifications: NotificationsPage;
  readonly paymentLinks: PaymentLinkPages;
  readonly dataRequests: DataRequestsPage;

  constructor(
    readonly page: Page,
    readonly language: UiLanguage,
  ) {
    this.m = ADMIN_MESSAGES[language];
    this.customer = MESSAGES[language];
    this.login = new AdminSignInPage(page, this.m);
    this.shell = new AdminShell(page, this.m);
    this.health = new HealthPage(page, this.m);
    this.overview = new OverviewSection(page, this.m);
    this.simulator = new SimulatorPage(page, this.m, this.customer);
    this.operations = new OperationsPage(page, this.m);
    this.operation = new OperationPage(page, this.m);
    this.refund = new RefundPage(page, this.m);
    this.dataRequests = new DataRequestsPage(page, this.m);
    this.theme = new ThemePage(page, this.m);
    this.notifications = new NotificationsPage(page, this.m);
    this.paymentLinks = new PaymentLinkPages(page, this.m, language);
  }

  /**
   * Signs in and lands on the health page (or `next`): with a session this worker already signed
   * in for the account when it is still open (`reuseSession`), else from the sign-in page, the
   * second factor included.
   */
  async signIn(account: StaffAccount, next?: string) {
    const cached = account.reuseSession ? signedIn.get(account.email) : undefined;
    if (cached) {
      await this.page.context().addCookies([cached]);
      await this.page.goto(next ?? "/admin");
      if (!new URL(this.page.url()).pathname.startsWith("/admin/login")) {
        await expect(this.shell.signOutButton).toBeVisible();
        await expect(this.shell.banner).toContainText(account.partner);
        return;
      }
      // Signed out, expired or idle since: a real sign-in.
      signedIn.delete(account.email);
      await this.page.context().clearCookies({ name: cached.name });
    }
    await this.login.goto(next);
    await this.login.signIn(account);
    await expect(this.shell.signOutButton).toBeVisible();
    await expect(this.shell.banner).toContainText(account.partner);
    if (account.reuseSession) {
      const cookie = (await this.page.context().cookies()).find((c) => /staff_session$/.test(c.name));
      if (cookie) signedIn.set(account.email, cookie);
    }
  }

  /** An operation's page, reached the way staff do: by its booking reference. */
  async openByReference(reference: string) {
    await this.operations.goto();
    await this.operations.findByReference(reference);
    await this.operation.expectOperation(reference);
  }

  /** Money as the back-office writes it. */
  money(cents: number): string {
    return euros(cents, this.language);
  }
}

/** A back-office signed in as `account` in a browser context of its own (English), for tests that need two staff at once. */
export async function signedInContext(
  browser: Browser,
  account: StaffAccount,
): Promise<{ page: Page; admin: Backoffice; close: () => Promise<void> }> {
  const context = await browser.newContext({ baseURL: APP_URL, locale: "en-GB" });
  const page = await context.newPage();
  const admin = new Backoffice(page, "en");
  await admin.signIn(account);
  return { page, admin, close: () => context.close() };
}
