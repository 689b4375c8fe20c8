import { expect, type FrameLocator, type Locator, type Page } from "@playwright/test";
import { MESSAGES, type Messages } from "@/lib/i18n/messages";
import type { CustomerDetails } from "../support/test-data";
import type { UiLanguage } from "../support/text";

/** The country names the form's selects show, by ISO 3166-1 alpha-3 code (only the ones used here). */
const COUNTRY_NAMES: Record<string, Record<UiLanguage, string>> = {
  ESP: { es: "España", en: "Spain" },
  PRT: { es: "Portugal", en: "Portugal" },
};

function countryName(code: string, language: UiLanguage): string {
  const name = COUNTRY_NAMES[code]?.[language];
  if (!name) throw new Error(`Add ${code} to COUNTRY_NAMES in e2e/pages/customer-details-page.ts`);
  return name;
}

/** `/checkout/{id}`: the booking and the customer's details form. */
export class CustomerDetailsPage {
  readonly m: Messages;
  readonly heading: Locator;
  readonly continueButton: Locator;
  readonly errorSummary: Locator;
  readonly bookingSummary: Locator;
  private readonly root: Page | FrameLocator;

  /** @param within the checkout's frame, for a checkout embedded in a partner's page. */
  constructor(
    readonly page: Page,
    readonly language: UiLanguage,
    within?: FrameLocator,
  ) {
    const m = (this.m = MESSAGES[language]);
    const root = (this.root = within ?? page);
    this.heading = root.getByRole("heading", { level: 1 });
    this.continueButton = root.getByRole("button", { name: m.form.submit, exact: true });
    // The summary is the box its heading names ("Revisa estos datos"). It has no role of its own
    // to select it by (a div with aria-labelledby), so it is found by that label.
    this.errorSummary = root.locator("[aria-labelledby=error-summary-title]");
    this.bookingSummary = root.getByRole("region", { name: m.booking.heading });
  }

  async goto(sessionId: string) {
    await this.page.goto(`/checkout/${sessionId}`);
  }

  /** A text field, a date field or a select, by its label. */
  field(name: Exclude<keyof CustomerDetails, "gender">): Locator {
    return this.root.getByLabel(this.m.form.labels[name], { exact: true });
  }

  /** The gender radios' group (its legend is its name). */
  get genderGroup(): Locator {
    return this.root.getByRole("radiogroup", { name: this.m.form.labels.gender });
  }

  genderRadio(gender: CustomerDetails["gender"]): Locator {
    return this.genderGroup.getByRole("radio", { name: this.m.form.genders[gender], exact: true });
  }

  /** Fills what is given, the way a customer does: typing, picking options by their names. */
  async fill(details: Partial<CustomerDetails>) {
    for (const [name, value] of Object.entries(details) as [keyof CustomerDetails, string][]) {
      if (name === "gender") await this.genderRadio(value as CustomerDetails["gender"]).check();
      else if (name === "documentType")
        await this.field(name).selectOption({ label: this.m.form.documentTypes[value as CustomerDetails["documentType"]] });
      else if (name === "nationality" || name === "countryCode")
        await this.field(name).selectOption({ label: countryName(value, this.language) });
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
