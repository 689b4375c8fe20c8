import { test as base, expect } from "@playwright/test";
import { Backoffice } from "./pages/admin/backoffice";
import { CheckoutPages } from "./pages/checkout-pages";
import { SandboxPages } from "./pages/sandbox-pages";
import { CheckoutSessionsApi } from "./support/checkout-sessions";
import { Sandbox } from "./support/sandbox";
import { languageOf } from "./support/text";

/*
 * The e2e library, wired into Playwright's fixtures: page objects (e2e/pages/), the clients of the
 * checkout sessions API and of the financing API's sandbox (e2e/support/). Test data, the axe check
 * and the app's constants are imported from e2e/support/ directly.
 */

type Fixtures = {
  /** The financing partner API's sandbox (and its control API), once the app serves it. */
  sandbox: Sandbox;
  /** The sandbox's hosted pages (financing page, provider checkout, result page) in the language of the browser's `locale`. */
  sandboxPages: SandboxPages;
  /** The checkout sessions API, as the demo partner's backend calls it. */
  checkoutSessions: CheckoutSessionsApi;
  /** The checkout's pages in the language of the browser's `locale`. */
  checkout: CheckoutPages;
  /** The back-office's pages in the language of the browser's `locale`. */
  admin: Backoffice;
};

export const test = base.extend<Fixtures>({
  // The fixture callback is named `provide`, not `use`, so React's hook lint rule leaves it alone.
  sandbox: async ({ request }, provide) => {
    const sandbox = new Sandbox(request);
    await sandbox.waitUntilServed();
    await provide(sandbox);
  },
  sandboxPages: async ({ page, locale }, provide) => {
    await provide(new SandboxPages(page, languageOf(locale)));
  },
  checkoutSessions: async ({ request }, provide) => {
    await provide(new CheckoutSessionsApi(request));
  },
  checkout: async ({ page, locale }, provide) => {
    await provide(new CheckoutPages(page, languageOf(locale)));
  },
  admin: async ({ page, locale }, provide) => {
    await provide(new Backoffice(page, languageOf(locale)));
  },
});

export { expect };
