import { expect, type Page } from "@playwright/test";
import { ADMIN_MESSAGES, type AdminMessages } from "@/lib/i18n/admin-messages";
import { MESSAGES, type Messages } from "@/lib/i18n/messages";
import type { StaffAccount } from "../../support/app";
import { euros, type UiLanguage } from "../../support/text";
import { HealthPage } from "./health-page";
import { OperationPage } from "./operation-page";
import { OperationsPage } from "./operations-page";
import { RefundPage } from "./refund-page";
import { AdminShell } from "./shell";
import { AdminSignInPage } from "./sign-in-page";
import { SimulatorPage } from "./simulator-page";
import { ThemePage } from "./theme-page";

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
  readonly simulator: SimulatorPage;
  readonly operations: OperationsPage;
  readonly operation: OperationPage;
  readonly refund: RefundPage;
  readonly theme: ThemePage;

  constructor(
    readonly page: Page,
    readonly language: UiLanguage,
  ) {
    this.m = ADMIN_MESSAGES[language];
    this.customer = MESSAGES[language];
    this.login = new AdminSignInPage(page, this.m);
    this.shell = new AdminShell(page, this.m);
    this.health = new HealthPage(page, this.m);
    this.simulator = new SimulatorPage(page, this.m, this.customer);
    this.operations = new OperationsPage(page, this.m);
    this.operation = new OperationPage(page, this.m);
    this.refund = new RefundPage(page, this.m);
    this.theme = new ThemePage(page, this.m);
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

  /** Money as the back-office writes it. */
  money(cents: number): string {
    return euros(cents, this.language);
  }
}
