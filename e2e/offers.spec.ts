import { expect, test } from "./fixtures";
import { euros, literally } from "./support/text";
import { renderedFonts } from "./support/fonts";
import { APP_URL } from "./support/app";
import { expectNoAxeViolations } from "./support/axe";
import { metricValue } from "./support/metrics";
import { aCustomer } from "./support/test-data";
import type { CheckoutPages } from "./pages/checkout-pages";

/*
 * The offers page as a customer meets it on a phone (390 × 844), installments first:
 * the counts on offer, each with its lowest monthly installment and that plan's installment that
 * differs; 12 preselected; that count's plans side by side with the cheapest marked, three of them
 * still aligned (a screenshot comparison); the warning and the representative example within two
 * screens; the choice working with JavaScript (in place) and without (a link, a new page).
 */

test.use({ baseURL: APP_URL, locale: "es-ES", viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const PHONE_HEIGHT = 844;

test.describe("the offers page on a phone", () => {
  test("12 installments preselected, the plans side by side, the disclosure within two screens; another count switches in place", async ({
    checkout,
  }) => {
    const { page, m, offers } = checkout;
    const sessionId = await checkout.startWithDetails(aCustomer());

    // The counts, each with its lowest monthly installment and what that plan's differing installment
    // is (lib/sandbox/offers.ts, the sample trip): 12 preselected.
    await expect(offers.countOption(12)).toHaveText(
      `${m.offers.countOption(12, euros(10850, "es"))}, ${m.offers.countDiffering(false, euros(10855, "es"))}`,
    );
    // Banca Nube's 6 months carry an opening fee in the first installment: the count never reads cheaper.
    await expect(offers.countOption(6)).toHaveText(
      `${m.offers.countOption(6, euros(20575, "es"))}, ${m.offers.countDiffering(true, euros(23661, "es"))}`,
    );
    await expect(offers.selectedCount).toHaveCount(1);
    await expect(offers.selectedCount).toHaveText(/^12 × /);
    // Its plans, one column each, the cheapest marked once; every plan's figures above its button.
    const table = offers.comparison(12);
    // The sandbox offers 12 installments with two providers (lib/sandbox/offers.ts).
    await expect(table.locator("thead th")).toHaveCount(2);
    await expect(table.getByText(m.offers.cheapest, { exact: true })).toHaveCount(1);
    for (const row of [m.offers.monthly, m.offers.tin, m.offers.tae, m.offers.totalInterest, m.offers.totalOwed])
      await expect(table.getByRole("rowheader", { name: row, exact: true })).toBeVisible();
    await expect(offers.chooseButtons).toHaveCount(2);
    await expect(offers.chooseButton(12, "Financiera Olivo")).toBeVisible();

    // The warning and the representative example, without scrolling past other plans: the whole
    // page fits in two screens of the phone.
    await expect(offers.warning).toBeVisible();
    await expect(offers.representativeExample).toBeVisible();
    await expect(offers.representativeExample).toContainText(m.offers.warning);
    // The example is that of the count shown (its plan with the highest TAE), to the cent.
    const example = m.offers.example;
    await expect(offers.representativeExample).toContainText(
      example.installmentsValue(12, example.differing(euros(10997, "es"), false, euros(11002, "es"))),
    );
    await expect(offers.representativeExample).toContainText(euros(131969, "es"));
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height, "the offers page's height").toBeLessThanOrEqual(2 * PHONE_HEIGHT);
    await expectNoAxeViolations(page, "the offers page on a phone, 12 installments");

    // With JavaScript, another count replaces the plans in place: no new document.
    await page.evaluate(() => Object.assign(window, { __samePage: true }));
    await offers.countOption(6).click();
    await expect(offers.group(6)).toBeVisible();
    await expect(offers.group(12)).toHaveCount(0);
    await expect(offers.selectedCount).toHaveText(/^6 × /);
    await expect(page).toHaveURL(`${APP_URL}/checkout/${sessionId}/offers?n=6`);
    await expect(offers.representativeExample).toContainText(
      example.installmentsValue(6, example.differing(euros(21332, "es"), false, euros(21330, "es"))),
    );
    await expect(offers.representativeExample).toContainText(euros(127990, "es"));
    expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
    await expectNoAxeViolations(page, "the offers page on a phone, 6 installments");

    // Choosing sends the plan chosen to the provider.
    await checkout.chooseAndReachProvider(6, "Crédito Levante");
    await expect(checkout.provider.provider).toContainText("Crédito Levante");
    await expect(checkout.provider.months()).toHaveCount(6);
  });

  test("the language switch keeps the installment count shown", async ({ checkout }) => {
    const { page, offers, languageSwitcher } = checkout;
    const sessionId = await checkout.startWithDetails(aCustomer());
    await offers.countOption(6).click();
    await expect(page).toHaveURL(`${APP_URL}/checkout/${sessionId}/offers?n=6`);
    await languageSwitcher.button("en").click();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page).toHaveURL(`${APP_URL}/checkout/${sessionId}/offers?n=6`);
    // The page objects speak Spanish: the count chosen, by its mark rather than its list's name.
    await expect(page.locator('nav a[aria-current="true"]')).toHaveText(/^6 × /);
  });

  test("three providers side by side still fit the phone: no figure and no word broken across lines", async ({ checkout }) => {
    const { page, m, offers } = checkout;
    await checkout.startWithDetails(aCustomer());
    await offers.countOption(3).click();
    const table = offers.comparison(3);
    // The sandbox offers 3 installments with three providers (lib/sandbox/offers.ts).
    await expect(table.locator("thead th")).toHaveCount(3);
    const broken = await table.evaluate((element) => {
      const linesOf = (node: Node) => {
        const range = document.createRange();
        range.selectNodeContents(node);
        return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
      };
      const problems: string[] = [];
      // Every figure on one line ("1.255,03 €", never "1.255,0" then "3 €").
      for (const cell of element.querySelectorAll("tbody td")) {
        if (!cell.querySelector("form") && cell.textContent && linesOf(cell) > 1) problems.push(`figure: ${cell.textContent}`);
      }
      // Every word of a provider's name whole ("Financiera", never "Financi" then "era").
      const walker = document.createTreeWalker(element.querySelector("thead")!, NodeFilter.SHOW_TEXT);
      for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        for (const match of (text.textContent ?? "").matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(text, match.index);
          range.setEnd(text, match.index + match[0].length);
          if (new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1) problems.push(`word: ${match[0]}`);
        }
      }
      return problems;
    });
    expect(broken).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, "wider than the phone").toBeLessThanOrEqual(0);

    // Aligned: the providers' names start on one line whichever is marked cheapest, and the buttons
    // are one line each ("Elegir" on a phone, named in full for assistive technology), level with each other.
    await expect(table.getByText(m.offers.cheapest, { exact: true })).toHaveCount(1);
    await expect(offers.chooseButtons).toHaveCount(3);
    const alignment = await table.evaluate((element) => {
      const firstLineTop = (node: Element) => {
        const range = document.createRange();
        range.selectNodeContents(node.firstChild ?? node);
        return Math.round(range.getClientRects()[0]?.top ?? -1);
      };
      // The lines of the text shown (a word hidden at this width has no box).
      const lines = (node: Element) => {
        const tops = new Set<number>();
        const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
        for (let text = walker.nextNode(); text; text = walker.nextNode()) {
          const range = document.createRange();
          range.selectNodeContents(text);
          for (const rect of range.getClientRects()) tops.add(Math.round(rect.top));
        }
        return tops.size;
      };
      const buttons = [...element.querySelectorAll("button")];
      return {
        names: new Set([...element.querySelectorAll("thead th")].map(firstLineTop)).size,
        buttonTops: new Set(buttons.map((button) => Math.round(button.getBoundingClientRect().top))).size,
        buttonHeights: new Set(buttons.map((button) => Math.round(button.getBoundingClientRect().height))).size,
        buttonLines: buttons.map(lines),
      };
    });
    expect(alignment).toEqual({ names: 1, buttonTops: 1, buttonHeights: 1, buttonLines: [1, 1, 1] });
    await expect(offers.chooseButton(3, "Banca Nube")).toHaveText(m.offers.chooseShort, { useInnerText: true });

    // What it looks like, against the committed baseline (offers.spec.ts-snapshots/). The app draws
    // with the system's fonts: the baseline is Debian's (DejaVu Sans, fonts-dejavu-core), said
    // first, so another machine's fonts fail here with that reason rather than as a pixel diff.
    expect(await renderedFonts(offers.group(3)), "the fonts the baseline was drawn with").toEqual(["DejaVu Sans"]);
    await expect(offers.counts).toHaveScreenshot("counts-390.png");
    await expect(offers.group(3)).toHaveScreenshot("three-plans-390.png");
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the count is a link to the same page with its plans; choosing one reaches the provider", async ({ checkout }) => {
      const { page, offers, provider } = checkout;
      const sessionId = await checkout.startWithDetails(aCustomer());
      await expect(offers.selectedCount).toHaveText(/^12 × /);

      await offers.countOption(18).click();
      await expect(page).toHaveURL(`${APP_URL}/checkout/${sessionId}/offers?n=18`);
      await expect(offers.selectedCount).toHaveText(/^18 × /);
      await expect(offers.group(18)).toBeVisible();
      await expect(offers.group(12)).toHaveCount(0);
      await expect(offers.representativeExample).toBeVisible();

      await checkout.chooseAndReachProvider(18, "Financiera Olivo");
      await expect(provider.months()).toHaveCount(18);
    });

    test("a count not on offer in the URL falls back to the default", async ({ checkout }) => {
      const { offers } = checkout;
      const sessionId = await checkout.startWithDetails(aCustomer());
      await offers.goto(sessionId, 7);
      await expect(offers.selectedCount).toHaveText(/^12 × /);
      await expect(offers.group(12)).toBeVisible();
    });
  });
});

test.describe("the pages' reads", () => {
  /** What the offers page asks the partner API: GET /financing/{id}, answered. */
  const OFFERS_CALLS = 'partner_api_requests_total{endpoint="GET /financing/{operationIdentifier}",outcome="200"}';
  /** What the status page asks: the operation's status, answered in full or "not modified". */
  const STATUS_CALLS = ["200", "304"].map(
    (outcome) => `partner_api_requests_total{endpoint="GET /operations/{id}/status",outcome="${outcome}"}`,
  );

  test("each load of the offers page asks the partner API once", async ({ checkout, request }) => {
    const { offers } = checkout;
    const sessionId = await checkout.startWithDetails(aCustomer());
    const calls = await metricValue(request, OFFERS_CALLS);
    for (const count of [6, 18, 12]) {
      await offers.goto(sessionId, count);
      await expect(offers.group(count)).toBeVisible();
      await expect(offers.selectedCount).toHaveText(new RegExp(`^${count} × `));
    }
    expect(await metricValue(request, OFFERS_CALLS), "one upstream call per load").toBe(calls + 3);
  });

  test("each load of the status page asks the partner API for the status at most once", async ({ checkout, request }) => {
    const sessionId = await checkout.startWithDetails(aCustomer());
    await checkout.chooseAndReachProvider(12, "Financiera Olivo");
    const statusCalls = async () => (await Promise.all(STATUS_CALLS.map((series) => metricValue(request, series)))).reduce((a, b) => a + b);
    const calls = await statusCalls();
    // The waiting page's document, as a reload without JavaScript gets it (a browser tab would also
    // poll the status's data route, which asks the partner API too).
    for (let load = 0; load < 3; load++) {
      const document = await request.get(`/checkout/${sessionId}/status`);
      expect(document.status()).toBe(200);
      expect(await document.text()).toContain(checkout.m.status.states.pending.title);
    }
    // At least the first load reads; loads within a few seconds of a read may reuse it (the status
    // reads' budget, lib/app-context.ts), so never more than one call per load.
    const made = (await statusCalls()) - calls;
    expect(made, "at most one upstream call per load").toBeLessThanOrEqual(3);
    expect(made, "the first load reads the status").toBeGreaterThanOrEqual(1);
  });
});

/** From the plans to the form ("Correct my details"), a new first name, then to the provider with it. */
async function correctAndReachProvider(checkout: CheckoutPages, { axe }: { axe: boolean }) {
  const { page, m, details, offers, provider } = checkout;
  const sessionId = await checkout.startWithDetails(aCustomer());

  await offers.editDetails.click();
  await expect(page).toHaveURL(`${APP_URL}/checkout/${sessionId}?edit=1`);
  await expect(details.heading).toHaveText(m.form.title);
  await expect(page.getByText(m.form.correctionNotice)).toBeVisible();
  // What was sent, masked: the field itself is blank (blank keeps it), its hint shows enough to recognise it.
  await expect(details.field("firstName")).toHaveValue("");
  await expect(details.field("firstName")).toHaveAccessibleDescription(literally(m.form.keptValue.replace("{mask}", "A•••")));
  if (axe) await expectNoAxeViolations(page, "the details form, correcting");

  await details.fill({ firstName: "Anabel" });
  await details.submit();
  await expect(offers.heading).toHaveText(m.offers.title);
  await checkout.chooseAndReachProvider(12, "Financiera Olivo");
  // The provider's checkout shows the applicant as corrected, not as first sent.
  await expect(provider.heading).toBeVisible();
  await expect(page.getByText("Anabel García López")).toBeVisible();
}

test("a plan request whose answer was lost (the instance stopped) still leads the customer to sign", async ({
  checkout,
  checkoutSessions,
  sandbox,
}) => {
  const { page, m, status, provider } = checkout;
  const sessionId = await checkout.startWithDetails(aCustomer());
  const operationId = (await checkoutSessions.read(sessionId)).operation!.id;
  // POST /financing reached the partner API, but its answer (the paymentUrl) never got recorded.
  await sandbox.requestFinancing(operationId);

  await page.goto(`/checkout/${sessionId}/status`);
  await status.expectState("pending");
  await page.getByRole("link", { name: m.status.continueProvider }).click();
  // The partner API's financing page for the operation, which leads on to the provider's checkout.
  await page.getByRole("link", { name: new RegExp(`^${literally(provider.t.links.continueAt("")).source}`) }).click();
  await provider.sign();
  await status.expectState("confirmed");
});

test.describe("corrected details", () => {
  test("a correction after the plans reaches the provider", async ({ checkout }) => {
    await correctAndReachProvider(checkout, { axe: true });
  });

  test("+not_eligible: the checkout ends there, final, and leads back to the agency with that outcome", async ({ checkout }) => {
    const { page, m, details, status } = checkout;
    const sessionId = await checkout.startAtShop();
    await details.fill(aCustomer({ email: "ana+not_eligible@example.com" }));
    await details.submit();
    // Past the plans, which there are none of, straight to the outcome.
    await status.expectState("not_eligible");
    await expect(status.progress).toHaveCount(0);
    const back = new URL((await status.payAnotherWay.getAttribute("href"))!);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ checkoutSession: sessionId, outcome: "not_eligible" });
    await expectNoAxeViolations(page, "the status page, not eligible");

    // Final: the plans and the correction form lead to the status, not back into the checkout.
    await page.goto(`/checkout/${sessionId}/offers`);
    await status.expectState("not_eligible");
    await page.goto(`/checkout/${sessionId}?edit=1`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(m.form.lockedTitle);
  });

  test("once a plan is chosen, the correction form says the details are locked, why, and where to go", async ({ checkout }) => {
    const { page, m } = checkout;
    const sessionId = await checkout.startWithDetails(aCustomer());
    await checkout.chooseAndReachProvider(12, "Financiera Olivo");

    await page.goto(`/checkout/${sessionId}?edit=1`);
    await expect(page).toHaveURL(`${APP_URL}/checkout/${sessionId}?edit=1`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(m.form.lockedTitle);
    await expect(page.getByText(m.form.lockedBody)).toBeVisible();
    await expect(page.getByRole("button", { name: m.form.submit })).toHaveCount(0);
    await expectNoAxeViolations(page, "the details form, locked");
    await page.getByRole("link", { name: m.form.failures.closedLink }).click();
    await expect(page).toHaveURL(`${APP_URL}/checkout/${sessionId}/status`);
    // Without ?edit=1 the details page leads to the status as before.
    await page.goto(`/checkout/${sessionId}`);
    await expect(page).toHaveURL(`${APP_URL}/checkout/${sessionId}/status`);
  });

  test("the correction form shows the data sent masked, and a Back after a correction shows the correction", async ({ checkout }) => {
    const { page, m, details, offers } = checkout;
    const customer = aCustomer();
    const sessionId = await checkout.startWithDetails(customer);
    await expect(offers.heading).toHaveText(m.offers.title);

    // The first submit set the browser's editor cookie, which clears the router's copies of pages:
    // Back asks the server again, which sends a session with plans to them; the link corrects.
    await page.goBack();
    await expect(offers.heading).toHaveText(m.offers.title);
    await offers.editDetails.click();
    await expect(page).toHaveURL(`${APP_URL}/checkout/${sessionId}?edit=1`);
    await expect(page.getByText(m.form.correctionNotice)).toBeVisible();
    // Masked: the fields blank, their hints enough to recognise what was sent, never the value.
    await expect(details.field("email")).toHaveValue("");
    await expect(details.field("documentId")).toHaveValue("");
    await expect(details.field("email")).toHaveAccessibleDescription(literally(m.form.keptValue.replace("{mask}", "a•••@example.com")));
    await expect(details.field("documentId")).toHaveAccessibleDescription(literally(m.form.keptValue.replace("{mask}", "••••678Z")));
    await expect(page.getByRole("main")).not.toContainText(customer.documentId);

    // Corrected, then Back again: the form shows the correction (masked), not the data sent before it.
    await details.fill({ firstName: "Beatriz" });
    await details.submit();
    await expect(offers.heading).toHaveText(m.offers.title);
    await page.goBack();
    await expect(page.getByText(m.form.correctionNotice)).toBeVisible();
    await expect(details.field("firstName")).toHaveAccessibleDescription(literally(m.form.keptValue.replace("{mask}", "B•••")));
    await expect(details.field("email")).toHaveAccessibleDescription(literally(m.form.keptValue.replace("{mask}", "a•••@example.com")));
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("a correction after the plans reaches the provider", async ({ checkout }) => {
      await correctAndReachProvider(checkout, { axe: false });
    });

    test("a correction whose new operation cannot be created says so on the form, and sent again goes through", async ({
      checkout,
      sandbox,
    }) => {
      const { page, m, details, offers } = checkout;
      const sessionId = await checkout.startWithDetails(aCustomer());
      await offers.editDetails.click();
      await expect(page).toHaveURL(`${APP_URL}/checkout/${sessionId}?edit=1`);

      // The old operation is cancelled, the new one cannot be created: the session is open again.
      expect((await sandbox.injectFault({ route: "POST /operations", fault: "503" })).status()).toBe(200);
      try {
        await details.fill({ firstName: "Anabel" });
        await details.submit();
        await expect(page.getByText(m.form.failures.unavailable)).toBeVisible();
        await expect(details.field("firstName")).toHaveValue("Anabel");
      } finally {
        await sandbox.clearFaults();
      }
      await details.submit();
      await expect(offers.heading).toHaveText(m.offers.title);
    });

    test("a correction sent from a tab left open while a plan was chosen in another lands on the payment's status", async ({
      checkout,
    }) => {
      const { page, m, details, offers, status } = checkout;
      const sessionId = await checkout.startWithDetails(aCustomer());
      await offers.editDetails.click();
      await expect(page).toHaveURL(`${APP_URL}/checkout/${sessionId}?edit=1`);

      // Meanwhile, in another tab, the customer chooses a plan and reaches the provider.
      const other = await page.context().newPage();
      await other.goto(`/checkout/${sessionId}/offers`);
      await other.getByRole("button", { name: m.offers.chooseLabel(12, "Financiera Olivo") }).click();
      await expect(other).toHaveURL(/\/sandbox\/provider\/checkout\/\w+$/);
      await other.close();

      // The first tab's correction can no longer change anything: its status, not a raw error page.
      await details.fill({ firstName: "Anabel" });
      await details.submit();
      await status.expectState("pending");
      expect(new URL(page.url()).pathname).toBe(`/checkout/${sessionId}/status`);
    });
  });
});

test.describe("without JavaScript, the pages that end the way", () => {
  test.use({ javaScriptEnabled: false });

  for (const path of [
    "/checkout/cs_made_up_session_0000",
    "/checkout/cs_made_up_session_0000/offers",
    "/checkout/not-a-session/status",
    // The provider's return links (our success and error redirect URLs).
    "/checkout/cs_made_up_session_0000/return/success",
  ]) {
    test(`a made-up checkout link (${path}) answers 404 with the message and a way back in the HTML`, async ({ checkout }) => {
      const { page, m } = checkout;
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(m.notFound.title);
      await expect(page.getByRole("link", { name: m.notFound.home })).toHaveAttribute("href", "/");
      await expect(page.locator("html")).toHaveAttribute("lang", "es");
    });
  }

  test("a return link with a word the app never sends (/return/ok) answers 404, even on a real session", async ({
    checkout,
    checkoutSessions,
  }) => {
    const { page, m } = checkout;
    const { id } = await checkoutSessions.open({ locale: "es", customer: null });
    for (const kind of ["ok", "cancel", "SUCCESS"]) {
      const response = await page.goto(`/checkout/${id}/return/${kind}`);
      expect(response?.status(), kind).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(m.notFound.title);
    }
    // The two the app puts in its redirect URLs still lead to the status page.
    for (const kind of ["success", "error"]) {
      const response = await page.request.get(`/checkout/${id}/return/${kind}`, { maxRedirects: 0 });
      expect(response.status(), kind).toBe(307);
      expect(new URL(response.headers().location!, APP_URL).pathname).toBe(`/checkout/${id}/status`);
    }
  });

  test("<html lang> is the partner's language for the session, not the browser's", async ({ checkout, checkoutSessions }) => {
    const { page } = checkout;
    const { url } = await checkoutSessions.open({ locale: "en", customer: null });
    await page.goto(url);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your details");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
  });
});
