import { expect, type Locator, type Page } from "@playwright/test";
import { generate } from "otplib";
import type { AdminMessages } from "@/lib/i18n/admin-messages";

const CODE_PAGE = /\/admin\/login\/code(\?|$)/;
const TOTP_PERIOD_MS = 30_000;

/** `/admin/login` and its second step `/admin/login/code`: the staff's sign-in. */
export class AdminSignInPage {
  readonly heading: Locator;
  readonly email: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly error: Locator;
  readonly code: Locator;
  readonly verify: Locator;
  readonly codeError: Locator;

  constructor(
    readonly page: Page,
    readonly m: AdminMessages,
  ) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.email = page.getByLabel(m.loginForm.email, { exact: true });
    this.password = page.getByLabel(m.loginForm.password, { exact: true });
    this.submit = page.getByRole("button", { name: m.loginForm.submit, exact: true });
    this.error = page.getByRole("alert").filter({ hasText: m.loginForm.summaryTitle });
    this.code = page.getByLabel(m.secondFactor.code, { exact: true });
    this.verify = page.getByRole("button", { name: m.secondFactor.submit, exact: true });
    this.codeError = page.getByRole("alert").filter({ hasText: m.secondFactor.summaryTitle });
  }

  /** @param next the page the sign-in goes back to. */
  async goto(next?: string) {
    await this.page.goto(next ? `/admin/login?next=${encodeURIComponent(next)}` : "/admin/login");
  }

  async expectShown() {
    await expect(this.page).toHaveURL(/\/admin\/login(\?|$)/);
    await expect(this.heading).toHaveText(this.m.login.title);
  }

  /**
   * Sends the form and waits for the server's answer (an earlier error stays on screen until then).
   * With the account's TOTP secret, also gives the second step its code.
   */
  async signIn(account: { email: string; password: string; totpSecret?: string }): Promise<void> {
    // The fields are remounted (emptied) when the previous answer is drawn, in the same render that
    // enables the button again: filled before that, they would be emptied and the click blocked by
    // the browser's own `required` check, with no request sent.
    await expect(this.submit).toBeEnabled();
    await this.email.fill(account.email);
    await this.password.fill(account.password);
    const answered = this.page.waitForResponse(
      (response) => response.request().method() === "POST" && new URL(response.url()).pathname === "/admin/login",
    );
    await this.submit.click();
    await answered;
    if (!account.totpSecret) return;
    await this.page.waitForURL(CODE_PAGE);
    await this.enterCode(account.totpSecret);
  }

  /** The password step alone: the session then waits for its second factor (or, not enrolled, enrolment). */
  async signInPasswordOnly(account: { email: string; password: string }): Promise<void> {
    await this.signIn({ email: account.email, password: account.password });
  }

  /** Sends one code on the second step; whether the server moved on (a redirect) or refused it. */
  async sendCode(code: string): Promise<boolean> {
    await this.code.fill(code);
    const answered = this.page.waitForResponse(
      (response) => response.request().method() === "POST" && new URL(response.url()).pathname === "/admin/login/code",
      { timeout: 30_000 },
    );
    await this.verify.click();
    await answered;
    // Accepted: the browser leaves the step. Refused: the form comes back with an empty field
    // (it is remounted for each answer), on the same page.
    const onStep = () => CODE_PAGE.test(new URL(this.page.url()).pathname);
    await expect
      .poll(async () => !onStep() || (await this.code.inputValue({ timeout: 1000 }).catch(() => code)) === "", { timeout: 20_000 })
      .toBe(true);
    return !onStep();
  }

  /**
   * The code of the authenticator app, computed from the published secret. A code is accepted once
   * per account and step (replays are refused), and other tests sign in with the same accounts, so
   * this tries the steps the server accepts, oldest first (the one before, now, the next), and
   * waits for a new step when all three have been used.
   */
  async enterCode(secret: string): Promise<string> {
    for (let round = 0; round < 4; round++) {
      for (const offset of [-TOTP_PERIOD_MS, 0, TOTP_PERIOD_MS]) {
        const code = await codeAt(secret, Date.now() + offset);
        if (await this.sendCode(code)) return code;
      }
      await this.page.waitForTimeout(TOTP_PERIOD_MS - (Date.now() % TOTP_PERIOD_MS) + 1000);
    }
    throw new Error("no TOTP code was accepted in four steps");
  }
}

/** The TOTP code an authenticator app with this secret shows at `ms`. */
export function codeAt(secret: string, ms: number): Promise<string> {
  return generate({ secret, epoch: Math.floor(ms / 1000) });
}
