import { expect, type Locator, type Page } from "@playwright/test";
import type { AdminMessages } from "@/lib/i18n/admin-messages";
import { PAYMENT_LINK_MESSAGES, type PaymentLinkMessages } from "@/lib/i18n/payment-link-messages";
import type { UiLanguage } from "../../support/text";

export interface PaymentLinkBooking {
  reference: string;
  packageName: string;
  travellers: number;
  /** As staff type it: "1234.50" (or "1234,50"); left alone when undefined (the quote filled it in). */
  total?: string;
  flight: { origin: string; destination: string; departureDate: string };
  /** What staff may prefill: never the document number or the birth date (the customer types those). */
  customer?: Partial<Record<"firstName" | "lastName" | "email" | "phone", string>>;
  locale?: UiLanguage;
}

/** `/admin/payment-links/new` and `/admin/payment-links/{id}`: a payment link, made and followed by staff. */
export class PaymentLinkPages {
  readonly t: PaymentLinkMessages;
  readonly heading: Locator;
  readonly create: Locator;
  readonly errors: Locator;
  readonly linkField: Locator;
  readonly copyButton: Locator;
  readonly qr: Locator;
  readonly state: Locator;
  readonly createdBy: Locator;
  readonly noSmtp: Locator;
  readonly emailTo: Locator;
  readonly emailLocale: Locator;
  readonly send: Locator;
  /** Sending to another address than the booking's: staff confirm they checked it. */
  readonly confirmRecipient: Locator;
  readonly revoke: Locator;
  readonly operationLink: Locator;

  constructor(
    readonly page: Page,
    readonly m: AdminMessages,
    language: UiLanguage,
  ) {
    const t = (this.t = PAYMENT_LINK_MESSAGES[language]);
    this.heading = page.getByRole("heading", { level: 1 });
    this.create = page.getByRole("button", { name: t.create, exact: true });
    this.errors = page.getByRole("group", { name: t.errorsTitle });
    this.linkField = page.getByRole("textbox", { name: t.linkLabel, exact: true });
    this.copyButton = page.getByRole("button", { name: t.copy, exact: true });
    this.qr = page.getByRole("img", { name: /QR/ });
    this.state = page.getByTestId("link-state");
    this.createdBy = page.getByTestId("link-created-by");
    this.noSmtp = page.getByText(t.noSmtp);
    this.emailTo = page.getByLabel(t.emailTo, { exact: true });
    this.emailLocale = page.getByLabel(t.emailLocale, { exact: true });
    this.send = page.getByRole("button", { name: t.emailSend, exact: true });
    this.confirmRecipient = page.getByRole("checkbox", { name: t.emailConfirm, exact: true });
    this.revoke = page.getByRole("button", { name: t.revoke, exact: true });
    this.operationLink = page.getByRole("link", { name: t.operationLink, exact: true });
  }

  async gotoNew() {
    await this.page.goto("/admin/payment-links/new");
  }

  field(name: keyof PaymentLinkMessages & string): Locator {
    return this.page.getByLabel(this.t[name] as string, { exact: true });
  }

  async fill(booking: PaymentLinkBooking) {
    await this.field("bookingReference").fill(booking.reference);
    await this.field("packageName").fill(booking.packageName);
    await this.field("travellers").fill(String(booking.travellers));
    if (booking.total !== undefined) await this.field("total").fill(booking.total);
    await this.field("flightOrigin").fill(booking.flight.origin);
    await this.field("flightDestination").fill(booking.flight.destination);
    await this.field("flightDepartureDate").fill(booking.flight.departureDate);
    for (const [name, value] of Object.entries(booking.customer ?? {})) await this.field(name as "firstName").fill(value);
    if (booking.locale) await this.field("locale").selectOption(booking.locale);
  }

  /** Creates the link and answers its URL, from the link's page. */
  async createLink(booking: PaymentLinkBooking): Promise<string> {
    await this.fill(booking);
    await this.create.click();
    await expect(this.page).toHaveURL(/\/admin\/payment-links\/cs_[\w-]+\?notice=created$/);
    await expect(this.heading).toHaveText(this.t.linkTitle);
    const url = await this.linkField.inputValue();
    expect(url).toMatch(/^https?:\/\/[^/]+\/checkout\/cs_[\w-]+$/);
    return url;
  }
}
