import { expect, type Locator, type Page } from "@playwright/test";
import type { AdminMessages } from "@/lib/i18n/admin-messages";

/** `/admin/operations/{id}`: one operation, its history, its webhooks and notifications; cancel, refund. */
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

  /** "Resend" on one of the notifications card's rows (the card lists this operation's only). */
  resendButton(type: string, reference: string): Locator {
    const name = this.m.notifications.resendLabel.replace("{event}", type).replace("{session}", reference);
    return this.notifications.getByRole("button", { name, exact: true });
  }

  resent(outcome: keyof AdminMessages["notifications"]["resent"]): Locator {
    return this.page.getByText(this.m.notifications.resent[outcome]);
  }

  async cancel(reason: string) {
    await this.reason.fill(reason);
    await this.cancelButton.click();
  }
}
