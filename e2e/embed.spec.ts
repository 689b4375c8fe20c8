import type { FrameLocator, Page } from "@playwright/test";
import { MESSAGES } from "@/lib/i18n/messages";
import { expect, test } from "./fixtures";
import { APP_URL } from "./support/app";
import { type CheckoutSessionOptions } from "./support/checkout-sessions";
import { PARTNER_SITE_ORIGIN, PARTNER_SITE_PORT, startPartnerSite, type PartnerSite } from "./support/partner-site";
import { aBookingReference, aCustomer } from "./support/test-data";

/*
 * The checkout embedded in a partner's page (docs/integrators/embedding.md): the partner's
 * site runs on another loopback origin (another site, so the checkout is a third-party frame there)
 * with the documented snippets. The app must list that origin for the demo partners:
 * DEMO_PARTNER_EXTRA_ORIGINS=PARTNER_SITE_ORIGIN in the web server's environment.
 */

const m = MESSAGES.es;

interface CheckoutEvent {
  type: string;
  step?: string;
  state?: string;
  final?: boolean;
  sessionId: string;
}

/** The partner prefills everything the customer's details form asks, but the phone (left for the customer to type). */
const { phone: _phone, ...CUSTOMER_BUT_PHONE } = aCustomer();

let site: PartnerSite;

test.beforeAll(async () => {
  site = await startPartnerSite({ port: PARTNER_SITE_PORT });
});

test.afterAll(async () => {
  await site?.close();
});

/** A session the partner's backend opens for its page: the customer prefilled but the phone, in Spanish. */
function sessionFor(returnUrl: string): CheckoutSessionOptions {
  return { reference: aBookingReference("EMBED"), customer: CUSTOMER_BUT_PHONE, returnUrl, locale: "es" };
}

/** Records the page's checkout events across its navigations (the provider is a full-page visit). */
async function recordEvents(page: Page): Promise<CheckoutEvent[]> {
  const events: CheckoutEvent[] = [];
  await page.exposeFunction("recordCheckoutEvent", (event: CheckoutEvent) => {
    events.push(event);
  });
  return events;
}

/** One directive of a Content-Security-Policy, as written ("frame-ancestors 'none'"). */
function directive(policy: string | undefined, name: string): string | undefined {
  return policy
    ?.split(";")
    .map((part) => part.trim())
    .find((part) => part.split(/\s+/)[0] === name);
}

const frameOf = (page: Page): FrameLocator => page.frameLocator("#checkout iframe");

async function frameHeight(page: Page): Promise<number> {
  return page.locator("#checkout iframe").evaluate((iframe) => iframe.getBoundingClientRect().height);
}

/**
 * The frame is as tall as its content: the height settles (no more resizes), and the framed
 * document has nothing to scroll.
 */
async function expectFitsItsContent(page: Page): Promise<number> {
  let previous = -1;
  await expect
    .poll(
      async () => {
        const now = await frameHeight(page);
        const settled = now === previous;
        previous = now;
        return settled;
      },
      { intervals: [300] },
    )
    .toBe(true);
  const metrics = await page
    .frames()
    .find((f) => f.url().startsWith(`${APP_URL}/checkout/`))!
    .evaluate(() => ({
      scrollHeight: document.documentElement.scrollHeight,
      clientHeight: document.documentElement.clientHeight,
    }));
  expect(metrics.scrollHeight, "no vertical scrollbar inside the frame").toBeLessThanOrEqual(metrics.clientHeight);
  return previous;
}

test.describe("embedding", () => {
  test("an embedded checkout goes to CONFIRMED in the partner's page, which hears ready, each step and the outcome; the frame fits its content", async ({
    page,
    checkout,
    checkoutSessions,
  }) => {
    const events = await recordEvents(page);
    const { id: sessionId } = await checkoutSessions.open(sessionFor(`${site.origin}/shop`));
    expect(site.origin).toBe(PARTNER_SITE_ORIGIN);

    // The copy-paste snippet in the partner's page.
    await page.goto(`${site.origin}/shop?checkoutSession=${sessionId}`);
    const { details, offers, provider, status } = checkout.in("es").within(frameOf(page));
    await expect(details.heading).toHaveText(m.form.title);
    await expect(page.locator("#checkout iframe")).toHaveAttribute("title", "Pago a plazos");
    await expect.poll(() => events.map((e) => e.type).slice(0, 2)).toEqual(["ready", "step"]);
    expect(events[1]).toMatchObject({ type: "step", step: "details", state: "open", sessionId });
    const formHeight = await expectFitsItsContent(page);

    // A failed submit (a server action, from inside the frame) adds the error summary: the frame grows.
    await details.submit();
    await expect(details.errorSummary).toBeVisible();
    const withErrors = await expectFitsItsContent(page);
    expect(withErrors).toBeGreaterThan(formHeight);

    await details.fill({ phone: aCustomer().phone });
    await details.submit();

    // The plans (installments first: a shorter page than the form with its errors): the frame shrinks to them.
    await expect(offers.heading).toHaveText(m.offers.title);
    await expect.poll(() => events.filter((e) => e.type === "step").map((e) => e.step)).toEqual(["details", "offers"]);
    const offersHeight = await expectFitsItsContent(page);
    expect(offersHeight).toBeLessThan(withErrors);

    // Choosing a plan: the provider's checkout opens at the top level, the whole page goes there.
    await offers.choose(12, "Financiera Olivo");
    await expect(page).toHaveURL(/\/sandbox\/provider\/checkout\/\w+$/);
    await expect.poll(() => events.filter((e) => e.type === "step").map((e) => e.step)).toEqual(["details", "offers", "provider"]);
    await provider.sign();

    // Back in the partner's page, which mounts the session again: the outcome, in the frame and as an event.
    await expect(page).toHaveURL(`${site.origin}/shop?checkoutSession=${sessionId}&outcome=confirmed`);
    await expect(status.heading).toHaveText(m.status.states.confirmed.title);
    await expect
      .poll(() => events.filter((e) => e.type === "outcome"))
      .toEqual([{ type: "outcome", state: "confirmed", final: true, sessionId }]);
    expect(events.filter((e) => e.type === "ready")).toHaveLength(2);
    const statusHeight = await expectFitsItsContent(page);
    expect(statusHeight).toBeLessThan(offersHeight);

    // What the partner's backend acts on.
    expect(await checkoutSessions.read(sessionId)).toMatchObject({ state: "confirmed", final: true });
  });

  test("TravelCheckout.mount: events to onEvent; the language switch works in the frame without cookies, and keeps what was typed", async ({
    page,
    checkout,
    checkoutSessions,
  }) => {
    const { id: sessionId } = await checkoutSessions.open(sessionFor(`${site.origin}/shop-api`));
    await page.goto(`${site.origin}/shop-api?checkoutSession=${sessionId}`);
    const frame = frameOf(page);
    const es = checkout.in("es").within(frame);
    const en = es.in("en");
    await expect(es.details.heading).toHaveText(m.form.title);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { checkoutEvents: CheckoutEvent[] }).checkoutEvents.map((e) => e.type)))
      .toEqual(["ready", "step"]);

    // Typed, not sent yet: the switch (a link in the frame, not the cookie's form) keeps it.
    const typed = { firstName: "Ana María", email: "ana.maria@example.com", documentId: "12345678Z" };
    await es.details.fill(typed);
    await frame.getByRole("link", { name: `${m.common.switchLanguage} English` }).click();
    await expect(en.details.heading).toHaveText(MESSAGES.en.form.title);
    for (const name of ["firstName", "email", "documentId"] as const) await expect(en.details.field(name), name).toHaveValue(typed[name]);
    // Still embedded (the frame still reports), still in English after the next step.
    await en.details.fill({ phone: aCustomer().phone });
    await en.details.submit();
    await expect(en.offers.heading).toHaveText(MESSAGES.en.offers.title);
    await expect
      .poll(() =>
        page.evaluate(() =>
          (window as unknown as { checkoutEvents: CheckoutEvent[] }).checkoutEvents.filter((e) => e.type === "step").map((e) => e.step),
        ),
      )
      // The switch is no step: the page changes language in place, nothing is announced again.
      .toEqual(["details", "offers"]);
    await expectFitsItsContent(page);
  });

  test("a page on an origin the partner did not allow cannot frame the checkout", async ({
    page,
    request,
    checkoutSessions,
    browserName,
  }) => {
    test.skip(browserName !== "chromium", "the refusal message is Chromium's");
    const other = await startPartnerSite();
    try {
      expect(other.origin).not.toBe(PARTNER_SITE_ORIGIN);
      const { id: sessionId } = await checkoutSessions.open(sessionFor(`${site.origin}/shop`));

      // The checkout says exactly who may frame it: the partner's origins.
      const response = await request.get(`/checkout/${sessionId}`);
      expect(directive(response.headers()["content-security-policy"], "frame-ancestors")).toBe(
        `frame-ancestors ${APP_URL} ${PARTNER_SITE_ORIGIN}`,
      );
      expect(response.headers()["x-frame-options"]).toBeUndefined();

      const refusal = page.waitForEvent("console", (message) => /frame-ancestors/.test(message.text()));
      await page.goto(`${other.origin}/shop?checkoutSession=${sessionId}`);
      expect((await refusal).text()).toMatch(/Refused to frame|has been blocked/);
      await expect(page.locator("#checkout iframe")).toHaveCount(1);
      // Nothing of the checkout inside, and not a word to the page.
      await expect(frameOf(page).getByRole("heading")).toHaveCount(0);
      expect(await page.evaluate(() => (window as unknown as { checkoutEvents: unknown[] }).checkoutEvents)).toEqual([]);
    } finally {
      await other.close();
    }
  });

  test("another site's page, or a page of the app itself, cannot frame what is not a partner's checkout", async ({ request }) => {
    for (const path of ["/", "/api/health", "/embed.js"]) {
      const response = await request.get(path);
      expect(directive(response.headers()["content-security-policy"], "frame-ancestors"), path).toBe("frame-ancestors 'none'");
      expect(response.headers()["x-frame-options"], path).toBe("DENY");
    }
  });
});
