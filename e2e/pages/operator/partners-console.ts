import { expect, type Locator, type Page } from "@playwright/test";
import { PARTNER_CONSOLE_MESSAGES, type PartnerConsoleMessages } from "@/lib/i18n/partner-console-messages";
import { API_SCOPES, type ApiScope } from "@/lib/vocabulary/api-scopes";
import { literally, type UiLanguage } from "../../support/text";

const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? ""));

/**
 * The checkout sessions API secrets panel, on a partner's console page and on the back-office's
 * `/admin/settings/api-secrets`: the list, "Create a secret" with the scopes ticked, and each
 * secret's "Rotate" and "Revoke"; a new secret is shown once.
 */
export class ApiSecretsPanel {
  readonly t: PartnerConsoleMessages["apiSecrets"];
  readonly nameField: Locator;
  readonly createButton: Locator;
  /** The secret just created or rotated in, shown once. */
  readonly newSecret: Locator;
  readonly table: Locator;

  constructor(
    readonly page: Page,
    readonly m: PartnerConsoleMessages,
  ) {
    this.t = m.apiSecrets;
    this.nameField = page.getByRole("textbox", { name: this.t.name });
    this.createButton = page.getByRole("button", { name: this.t.create, exact: true });
    this.newSecret = page.getByTestId("new-api-secret");
    this.table = page.getByRole("table", { name: this.t.caption });
  }

  row(name: string): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByRole("rowheader", { name, exact: true }) });
  }

  /** A scope's box in the create form. */
  scopeBox(scope: ApiScope): Locator {
    return this.page.getByRole("checkbox", { name: this.t.scopes[scope] });
  }

  /**
   * Creates a secret named `name` with exactly `scopes` ticked (reading and opening sessions unless
   * said) and answers its plaintext, as the panel shows it once.
   */
  async create(name: string, scopes: readonly ApiScope[] = ["sessions:read", "sessions:open"]): Promise<string> {
    await this.nameField.fill(name);
    for (const scope of API_SCOPES) await this.scopeBox(scope).setChecked(scopes.includes(scope));
    await this.createButton.click();
    await expect(this.newSecret).toBeVisible();
    const secret = (await this.newSecret.textContent())!.trim();
    await expect(this.row(name)).toBeVisible();
    return secret;
  }

  /** Rotates the active secret named `name`; answers the new one's plaintext. */
  async rotate(name: string): Promise<string> {
    const before = (await this.newSecret.isVisible()) ? await this.newSecret.textContent() : null;
    await this.page
      .getByRole("button", { name: fill(this.t.rotateLabel, { name }), exact: true })
      .first()
      .click();
    await expect(this.newSecret).toBeVisible();
    await expect(this.newSecret).not.toHaveText(before ?? "");
    return (await this.newSecret.textContent())!.trim();
  }

  /**
   * Revokes one secret from its row: "Revoke" first says what it will do, and only the button under
   * that revokes; nothing is revoked by the first press.
   */
  private async revokeIn(row: Locator, name: string) {
    const confirm = row.getByRole("button", { name: fill(this.t.revokeConfirmLabel, { name }), exact: true });
    await expect(confirm).toBeHidden();
    await row.locator("summary").click();
    await expect(row.getByText(fill(this.t.revokeConsequence, { name }), { exact: true })).toBeVisible();
    await confirm.click();
  }

  /** Revokes the working secrets named `name` that are in their rotation's overlap (the old one). */
  async revokeReplaced(name: string) {
    await this.revokeIn(this.row(name).filter({ hasText: this.t.states.rotating.split("{")[0]!.trim() }), name);
    await expect(this.page.getByRole("status").filter({ hasText: this.t.revoked })).toBeVisible();
  }

  async revokeAll(name: string) {
    const working = this.row(name).filter({ has: this.page.locator("summary") });
    while ((await working.count()) > 0) {
      const count = await working.count();
      await this.revokeIn(working.first(), name);
      await expect(working).toHaveCount(count - 1);
    }
  }
}

/** `/operator/partners` and a partner's page: the platform operator's console. */
export class PartnersConsole {
  readonly m: PartnerConsoleMessages;
  readonly secrets: ApiSecretsPanel;

  constructor(
    readonly page: Page,
    readonly language: UiLanguage,
  ) {
    this.m = PARTNER_CONSOLE_MESSAGES[language];
    this.secrets = new ApiSecretsPanel(page, this.m);
  }

  heading(name: string): Locator {
    return this.page.getByRole("heading", { level: 1, name, exact: true });
  }

  section(title: string): Locator {
    return this.page.getByRole("region", { name: title });
  }

  async gotoList() {
    await this.page.goto("/operator/partners");
    await expect(this.heading(this.m.list.title)).toBeVisible();
  }

  /** Creates a partner from the list's "Create a partner" and lands on its page. */
  async create(id: string, name: string) {
    await this.gotoList();
    await this.page.getByRole("link", { name: this.m.list.create }).click();
    await expect(this.heading(this.m.create.title)).toBeVisible();
    await this.page.getByRole("textbox", { name: this.m.create.id }).fill(id);
    await this.page.getByRole("textbox", { name: this.m.create.name }).fill(name);
    await this.page.getByRole("button", { name: this.m.create.submit }).click();
    await expect(this.heading(name)).toBeVisible();
    await expect(this.page.getByText(this.m.detail.notices.created)).toBeVisible();
  }

  async saveSettings(values: { origins: string; returnUrl: string }) {
    const section = this.section(this.m.settings.title);
    await section.getByRole("textbox", { name: this.m.settings.origins }).fill(values.origins);
    await section.getByRole("textbox", { name: this.m.settings.returnUrl }).fill(values.returnUrl);
    await section.getByRole("button", { name: this.m.settings.submit }).click();
    await expect(section.getByRole("status").filter({ hasText: this.m.settings.saved })).toBeVisible();
  }

  get credential(): Locator {
    return this.section(this.m.credential.title);
  }

  /** Types a key of `kind` and submits it (the answer is on the page: saved, refused, or the agencies to pick). */
  async submitKey(kind: "agency" | "group", key: string) {
    const t = this.m.credential;
    await this.credential.getByRole("radio", { name: t.kinds[kind] }).check();
    await this.credential.getByLabel(t.key, { exact: true }).fill(key);
    await this.credential.getByRole("button", { name: t.submit }).click();
  }

  async pickAgency(label: string) {
    const t = this.m.credential;
    await this.credential.getByRole("combobox", { name: t.agency }).selectOption({ label });
    await this.credential.getByRole("button", { name: t.saveAgency }).click();
  }

  /** The credential as the section says it now. */
  currentCredential(text: string): Locator {
    return this.credential.getByText(fill(this.m.credential.current, { credential: text }));
  }

  async setAgencies(ids: string) {
    const section = this.section(this.m.agencies.title);
    await section.getByRole("textbox", { name: this.m.agencies.field }).fill(ids);
    await section.getByRole("button", { name: this.m.agencies.submit }).click();
    await expect(this.page.getByText(this.m.detail.notices.agencies)).toBeVisible();
  }

  /** Disabling says what it does first, and only the button under that disables; enabling is one press. */
  async setDisabled(disabled: boolean) {
    const section = this.section(this.m.state.title);
    if (disabled) {
      await expect(section.getByRole("button", { name: this.m.state.disableConfirm })).toBeHidden();
      await section.locator("summary").click();
      // The consequence, whatever the partner's name.
      const [before, after] = this.m.state.disableConsequence.split("{name}").map((part) => literally(part).source);
      await expect(section.getByText(new RegExp(`^${before}.+${after}$`))).toBeVisible();
      await section.getByRole("button", { name: this.m.state.disableConfirm }).click();
    } else {
      await section.getByRole("button", { name: this.m.state.enable }).click();
    }
    await expect(this.page.getByText(disabled ? this.m.detail.notices.disabled : this.m.detail.notices.enabled)).toBeVisible();
  }

  /** Creates the first administrator; answers the one-time link shown. */
  async inviteAdmin(email: string, name: string): Promise<string> {
    const section = this.section(this.m.admin.title);
    await section.getByRole("textbox", { name: this.m.admin.email }).fill(email);
    await section.getByRole("textbox", { name: this.m.admin.name }).fill(name);
    await section.getByRole("button", { name: this.m.admin.submit }).click();
    const link = this.page.getByTestId("admin-invitation-link");
    await expect(link).toBeVisible();
    return link.inputValue();
  }
}
