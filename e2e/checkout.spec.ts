import { expect, test } from "./fixtures";
import { CheckoutPages } from "./pages/checkout-pages";
import { APP_URL, DEMO_PARTNER_NAME } from "./support/app";
import { aCustomer, isoDayFromToday } from "./support/test-data";
import { literally } from "./support/text";

/*
 * The checkout as a customer goes through it (docs/contributors/architecture.md, "The checkout as data moves"): the demo shop opens a session, the
 * customer fills the details form, compares the plans, chooses one, signs (or not) at the
 * sandbox's provider checkout and comes back to the status page, then to the shop. Every outcome
 * is driven by the sandbox's e-mail triggers (docs/qa/README.md, "Triggers"); each test opens its own session.
 *
 * Selectors are roles and the UI's own words (lib/i18n/messages.ts, through the page objects in
 * e2e/pages/); the language tests at the end check the words themselves.
 */

// Customers browse the app's own origin (APP_URL): the provider sends them back there.
test.use({ baseURL: APP_URL, locale: "es-ES" });

/** 1.234,50 € as Spain writes it (Intl may or may not group four digits; the space is a no-break one). */
const CASH_PRICE_ES = /1\.?234,50\s€/;

test.describe("checkout", () => {
  test("happy path: details, offers with the representative example, a plan signed at the provider, confirmed, back at the shop", async ({
    checkout,
    checkoutSessions,
  }) => {
    const { page, m, shop, details, offers, provider, status } = checkout;

    await shop.goto();
    await expect(shop.heading).toHaveText(m.shop.title);
    const sessionId = await shop.payInInstallments();

    // The details form, with the booking and what the shop already knew (the name).
    await expect(details.heading).toHaveText(m.form.title);
    await expect(page.getByRole("banner")).toContainText(DEMO_PARTNER_NAME);
    await expect(details.bookingSummary).toContainText("Lisboa, 4 noches");
    await expect(details.bookingSummary).toContainText(CASH_PRICE_ES);
    await expect(details.field("firstName")).toHaveValue("Ana");
    await expect(details.field("lastName")).toHaveValue("García López");
    const { firstName: _first, lastName: _last, ...rest } = aCustomer();
    await details.fill(rest);
    await details.submit();

    // The plans, installments first, each with its figures, and the representative example.
    await expect(page).toHaveURL(`${APP_URL}/checkout/${sessionId}/offers`);
    await expect(offers.heading).toHaveText(m.offers.title);
    await expect(
      page.getByRole("main").getByText(new RegExp(literally(m.offers.intro("CASH")).source.replace("CASH", CASH_PRICE_ES.source))),
    ).toBeVisible();
    await expect(offers.warning).toBeVisible();
    // Installments first: every count on offer, 12 preselected, its plans side by side.
    for (const installments of [3, 6, 9, 12, 18, 24]) await expect(offers.countOption(installments)).toBeVisible();
    await expect(offers.selectedCount).toHaveText(/^12 × /);
    await expect(offers.group(12)).toBeVisible();
    await expect(await offers.figure(12, "Financiera Olivo", m.offers.tin)).toHaveText("9,95 %");
    await expect(offers.comparison(12)).toContainText(m.offers.totalOwed);

    const example = offers.representativeExample;
    await expect(example).toBeVisible();
    await expect(example).toContainText(
      /Para un crédito de .+ a \d+ meses, en \d+ cuotas mensuales de .+, con un TIN del .+ y una TAE del .+/,
    );
    for (const term of [
      m.offers.example.tin,
      m.offers.example.tae,
      m.offers.example.credit,
      m.offers.example.duration,
      m.offers.example.owed,
      m.offers.example.cost,
      m.offers.example.cash,
      m.offers.example.lender,
    ]) {
      await expect(example.getByRole("term").filter({ hasText: new RegExp(`^${literally(term).source}$`) })).toBeVisible();
    }
    await expect(example).toContainText(CASH_PRICE_ES);
    await expect(example).toContainText(m.offers.warning);

    // The provider checkout: the plan chosen, its schedule, sign.
    await checkout.chooseAndReachProvider(12, "Financiera Olivo");
    // The waiting page (in another tab) polls with JavaScript: its no-script reload stays inert.
    const waiting = await page.context().newPage();
    await waiting.goto(`/checkout/${sessionId}/status`);
    await expect(waiting.locator("noscript")).toHaveCount(1);
    await expect(waiting.locator('meta[http-equiv="refresh"]')).toHaveCount(0);
    await waiting.close();
    await expect(provider.provider).toContainText("Financiera Olivo");
    await expect(provider.months()).toHaveCount(12);
    await provider.sign();

    // Back at the checkout: confirmed, and the way back to the shop.
    await status.expectState("confirmed");
    expect(new URL(page.url()).pathname).toBe(`/checkout/${sessionId}/status`);
    await expect(status.backToPartner).toBeVisible();
    expect((await checkoutSessions.read(sessionId)).state).toBe("confirmed");
    // The plan chosen, repeated with its figures (the sample trip's 12 months with Financiera Olivo).
    const plan = page.getByRole("region", { name: m.status.yourPlan });
    // Every installment counted: eleven regular ones and the last, which differs by rounding.
    await expect(plan).toContainText("11 × 108,50 € + 1 × 108,55 €");
    await expect(plan).toContainText("Financiera Olivo");
    await expect(plan).toContainText("1.302,05 €");

    await status.backToPartner.click();
    await expect(page).toHaveURL((url) => url.pathname === "/" && url.searchParams.get("checkoutSession") === sessionId);
    await expect(shop.returnNotice).toBeVisible();
    await expect(shop.returnNotice).toContainText(m.status.states.confirmed.title);
  });

  test("+refuse_first: the chosen provider refuses, another accepts the same installments; signed, confirmed", async ({ checkout }) => {
    const { page, m, provider, status } = checkout;
    await checkout.startWithDetails(aCustomer({ email: "ana+refuse_first@example.com" }));

    await checkout.chooseAndReachProvider(12, "Financiera Olivo");
    // Another provider took the request over, for the same 12 installments, and says so.
    await expect(provider.provider).not.toContainText("Financiera Olivo");
    await expect(provider.provider).toContainText("Crédito Levante");
    await expect(page.getByRole("status")).toContainText(provider.t.checkout.otherProviders("Financiera Olivo", "Crédito Levante", 12));
    await expect(provider.months()).toHaveCount(12);

    await provider.sign();
    await status.expectState("confirmed");
    await expect(status.backToPartner).toBeVisible();
    await expect(page.getByText(m.status.states.refused.title)).toHaveCount(0);
  });

  test("+refuse_offer: the plan is refused, the offers page says so and shows the alternatives; another plan is signed, confirmed", async ({
    checkout,
  }) => {
    const { page, m, offers, provider, status } = checkout;
    const sessionId = await checkout.startWithDetails(aCustomer({ email: "ana+refuse_offer@example.com" }));
    await expect(offers.group(12)).toBeVisible();

    await offers.choose(12, "Financiera Olivo");

    // Still on the offers: the refusal in plain words, and the 12 installments gone.
    await expect(page).toHaveURL(`${APP_URL}/checkout/${sessionId}/offers`);
    await expect(offers.refusedNotice).toBeVisible();
    await expect(offers.countOption(12)).toHaveCount(0);
    await expect(offers.chooseButton(12, "Crédito Levante")).toHaveCount(0);
    for (const installments of [3, 6, 9, 18, 24]) await expect(offers.countOption(installments)).toBeVisible();
    await expect(offers.representativeExample).toBeVisible();

    await checkout.chooseAndReachProvider(6, "Crédito Levante");
    await expect(provider.provider).toContainText("Crédito Levante");
    await expect(provider.months()).toHaveCount(6);
    await provider.sign();

    await status.expectState("confirmed");
    await expect(status.backToPartner).toBeVisible();
    // Financed: every step behind the customer.
    await expect(status.progress.getByRole("listitem")).toHaveText(m.common.steps.map((step) => `${step} (${m.common.stepDone})`));
  });

  test("+error_offer: the plan fails with a technical error, the offers page says so and shows the alternatives; another plan reaches the provider", async ({
    checkout,
  }) => {
    const { page, offers, provider } = checkout;
    const sessionId = await checkout.startWithDetails(aCustomer({ email: "ana+error_offer@example.com" }));

    await offers.choose(12, "Financiera Olivo");

    await expect(page).toHaveURL(`${APP_URL}/checkout/${sessionId}/offers`);
    await expect(offers.failedNotice).toBeVisible();
    await expect(offers.refusedNotice).toHaveCount(0);
    await expect(offers.countOption(12)).toHaveCount(0);
    await checkout.chooseAndReachProvider(6, "Crédito Levante");
    await expect(provider.provider).toContainText("Crédito Levante");
  });

  test("+refuse_all: refused with no alternative; the status page says so and leads back to the shop to pay another way", async ({
    checkout,
    checkoutSessions,
  }) => {
    const { page, m, shop, offers, status } = checkout;
    const sessionId = await checkout.startWithDetails(aCustomer({ email: "ana+refuse_all@example.com" }));

    await offers.choose(12, "Financiera Olivo");

    await status.expectState("refused");
    await expect(status.backToPartner).toHaveCount(0);
    await expect(status.payAnotherWay).toBeVisible();
    // No progress bar: its three steps "done" read as a signed, successful financing.
    await expect(status.progress).toHaveCount(0);
    // Nor the plan refused: it is not theirs.
    await expect(page.getByRole("region", { name: m.status.yourPlan })).toHaveCount(0);
    expect(await checkoutSessions.read(sessionId)).toMatchObject({ state: "refused", final: true });

    await status.payAnotherWay.click();
    await expect(page).toHaveURL((url) => url.pathname === "/" && url.searchParams.get("outcome") === "refused");
    await expect(shop.returnNotice).toContainText(m.status.states.refused.title);
  });

  test("+error: the status page says the financing could not be completed and leads back to the shop", async ({ checkout }) => {
    const { offers, status } = checkout;
    const sessionId = await checkout.startWithDetails(aCustomer({ email: "ana+error@example.com" }));

    await offers.choose(12, "Financiera Olivo");

    await status.expectState("error");
    await expect(status.payAnotherWay).toBeVisible();
    await expect(status.payAnotherWay).toHaveAttribute("href", literally(`checkoutSession=${sessionId}`));
  });

  test("+decline: the provider declines after the customer signs; the status page says refused", async ({ checkout }) => {
    const { provider, status } = checkout;
    await checkout.startWithDetails(aCustomer({ email: "ana+decline@example.com" }));

    await checkout.chooseAndReachProvider(12, "Financiera Olivo");
    await provider.sign();

    await status.expectState("refused");
    await expect(status.payAnotherWay).toBeVisible();
  });

  test("the customer declines at the provider checkout; the status page says refused", async ({ checkout }) => {
    const { provider, status } = checkout;
    await checkout.startWithDetails(aCustomer());

    await checkout.chooseAndReachProvider(3, "Banca Nube");
    await provider.decline();

    await status.expectState("refused");
    await expect(status.payAnotherWay).toBeVisible();
  });

  test("a value the summary cannot tell apart (characters that cannot be used) is listed with its field's name", async ({ checkout }) => {
    const { m, details } = checkout;
    await checkout.startAtShop();
    await details.fill({ ...aCustomer(), city: "Mad\u0007rid" });
    await details.submit();
    await expect(details.errorSummary).toBeVisible();
    await expect(details.errorSummary.getByRole("link")).toHaveText([`${m.form.labels.city}: ${m.form.errors.characters}`]);
    // Beside the field, where the field is plain to see, the message alone.
    await expect(details.field("city")).toHaveAccessibleDescription(
      new RegExp(`${literally(m.form.errorPrefix).source}\\s+${literally(m.form.errors.characters).source}$`),
    );
  });

  test("invalid details: each field says what is wrong, the summary lists it all, typed values stay; fixed, the offers come", async ({
    checkout,
  }) => {
    const { page, m, details, offers } = checkout;
    const errors = m.form.errors;
    await checkout.startAtShop();

    const wrong = {
      email: "ana.example.com",
      phone: "512345678",
      documentId: "12345678A",
      birthDate: isoDayFromToday({ years: -10 }),
      documentValidityDate: isoDayFromToday({ years: -2 }),
      postalCode: "99999",
    };
    await details.fill({ ...wrong, firstName: "" });
    // Left empty: the first name (cleared), the sex, the nationality, the address and the town.
    await details.submit();

    const expected: [Parameters<typeof details.field>[0] | "gender", string][] = [
      ["firstName", errors.required.firstName],
      ["birthDate", errors.minor],
      ["gender", errors.required.gender],
      ["nationality", errors.required.nationality],
      ["email", errors.email],
      ["phone", errors.phone],
      ["documentId", errors.dni_letter],
      ["documentValidityDate", errors.expired],
      ["address", errors.required.address],
      ["city", errors.required.city],
      ["postalCode", errors.postal_code],
    ];

    // The summary comes first (and takes the focus), listing every problem in the form's order.
    await expect(details.errorSummary).toBeVisible();
    await expect(details.errorSummary.getByRole("heading")).toHaveText(m.form.summaryTitle);
    await expect(details.errorSummary).toBeFocused();
    await expect(details.errorSummary.getByRole("link")).toHaveText(expected.map(([, message]) => message));

    // Each field carries its own message: shown next to it, and as its accessible description.
    for (const [name, message] of expected) {
      const control = name === "gender" ? details.genderGroup : details.field(name);
      await expect(control, `${name} is marked invalid`).toHaveAttribute("aria-invalid", "true");
      await expect(control, `${name} is described by its error`).toHaveAccessibleDescription(
        new RegExp(`${literally(m.form.errorPrefix).source}\\s+${literally(message).source}$`),
      );
    }
    await expect(page.getByRole("main").getByText(errors.dni_letter, { exact: true }).first()).toBeVisible();
    // Fields without a problem are not marked.
    await expect(details.field("lastName")).not.toHaveAttribute("aria-invalid", "true");
    await expect(details.field("prefix")).not.toHaveAttribute("aria-invalid", "true");

    // What the customer typed is still there.
    await expect(details.field("email")).toHaveValue(wrong.email);
    await expect(details.field("phone")).toHaveValue(wrong.phone);
    await expect(details.field("documentId")).toHaveValue(wrong.documentId);
    await expect(details.field("birthDate")).toHaveValue(wrong.birthDate);
    await expect(details.field("documentValidityDate")).toHaveValue(wrong.documentValidityDate);
    await expect(details.field("postalCode")).toHaveValue(wrong.postalCode);
    await expect(details.field("lastName")).toHaveValue("García López");

    // A summary link leads to its field.
    await details.summaryLink(errors.email).click();
    await expect(details.field("email")).toBeFocused();

    // Fixed, the details go through.
    const { firstName, birthDate, gender, nationality, email, phone, documentId, documentValidityDate, address, city, postalCode } =
      aCustomer();
    await details.fill({
      firstName,
      birthDate,
      gender,
      nationality,
      email,
      phone,
      documentId,
      documentValidityDate,
      address,
      city,
      postalCode,
    });
    await details.submit();
    await expect(page).toHaveURL(/\/checkout\/cs_[\w-]+\/offers$/);
    await expect(offers.heading).toHaveText(m.offers.title);
  });

  test("a second browser with only the link sees none of the data sent and cannot correct it; the customer's own sees it masked", async ({
    browser,
    checkout,
    checkoutSessions,
  }) => {
    const { page, m, details, offers } = checkout;
    const customer = aCustomer();
    const sessionId = await checkout.startAtShop();

    // Someone else opens the same link (forwarded, seen over a shoulder) before the customer sends.
    const otherContext = await browser.newContext({ baseURL: APP_URL, locale: "es-ES" });
    let sent: string;
    try {
      const other = new CheckoutPages(await otherContext.newPage(), "es");
      await other.page.goto(`/checkout/${sessionId}`);
      await expect(other.details.heading).toHaveText(m.form.title);

      await details.complete(customer);
      await expect(offers.heading).toHaveText(m.offers.title);
      sent = (await checkoutSessions.read(sessionId)).operation!.id;

      // The form it loaded before the customer sent: its "correction" is refused, nothing changes upstream.
      await other.details.fill(aCustomer({ firstName: "Mallory", email: "mallory@example.com", documentId: "87654321X" }));
      await other.details.submit();
      await expect(other.page.getByText(m.form.failures.not_editor)).toBeVisible();
      expect((await checkoutSessions.read(sessionId)).operation!.id).toBe(sent);

      // With only the link: no form, and none of the data sent, on the correction form or the plans.
      for (const path of [`/checkout/${sessionId}?edit=1`, `/checkout/${sessionId}/offers`]) {
        await other.page.goto(path);
        const main = other.page.getByRole("main");
        for (const value of [
          customer.documentId,
          "678Z",
          customer.phone,
          customer.birthDate,
          customer.email,
          customer.address,
          customer.lastName,
        ]) {
          await expect(main, `${path}: ${value}`).not.toContainText(value);
        }
      }
      await other.page.goto(`/checkout/${sessionId}?edit=1`);
      await expect(other.page.getByRole("heading", { level: 1 })).toHaveText(m.form.sentTitle);
      await expect(other.page.getByRole("button", { name: m.form.submit })).toHaveCount(0);
    } finally {
      await otherContext.close();
    }

    // The customer's own browser: the correction form, with what was sent masked, and a changed field typed again.
    await offers.editDetails.click();
    await expect(page.getByText(m.form.maskedNotice)).toBeVisible();
    await expect(details.field("documentId")).toHaveValue("");
    await expect(details.field("documentId")).toHaveAccessibleDescription(literally(m.form.keptValue.replace("{mask}", "••••678Z")));
    await expect(details.field("phone")).toHaveAccessibleDescription(literally(m.form.keptValue.replace("{mask}", "••• ••• 78")));
    await expect(details.field("birthDate")).toHaveAccessibleDescription(literally(m.form.keptHidden));
    await expect(page.getByRole("main")).not.toContainText(customer.documentId);
    await details.fill({ firstName: "Anabel" });
    await details.submit();
    await expect(offers.heading).toHaveText(m.offers.title);
    expect((await checkoutSessions.read(sessionId)).operation!.id).not.toBe(sent);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the whole happy path works: shop, details, offers, provider, signed, confirmed", async ({ checkout }) => {
      const { page, m, shop, details, offers, provider, status } = checkout;

      await shop.goto();
      const sessionId = await shop.payInInstallments();
      await expect(details.heading).toHaveText(m.form.title);

      await details.complete(aCustomer());
      await expect(offers.heading).toHaveText(m.offers.title);
      await expect(offers.representativeExample).toBeVisible();

      await checkout.chooseAndReachProvider(12, "Financiera Olivo");
      await expect(provider.provider).toContainText("Financiera Olivo");
      // Meanwhile, the waiting page (in another tab) reloads itself, as it says it does.
      const waiting = await page.context().newPage();
      await waiting.goto(`/checkout/${sessionId}/status`);
      await expect(waiting.locator('meta[http-equiv="refresh"]')).toHaveAttribute("content", "15");
      await waiting.close();
      await provider.sign();

      await status.expectState("confirmed");
      expect(new URL(page.url()).pathname).toBe(`/checkout/${sessionId}/status`);
      // Final: nothing reloads any more.
      await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);
      await expect(status.backToPartner).toBeVisible();
    });

    test("a failed submit shows the errors too, and keeps what was typed", async ({ checkout }) => {
      const { m, details } = checkout;
      await checkout.startAtShop();

      await details.fill({ email: "ana.example.com" });
      await details.submit();

      await expect(details.errorSummary.getByRole("link", { name: m.form.errors.email, exact: true })).toBeVisible();
      await expect(details.field("email")).toHaveAccessibleDescription(literally(m.form.errors.email));
      await expect(details.field("email")).toHaveValue("ana.example.com");
    });

    test("errors come back through a redirect: reload and Back never send the form again", async ({ checkout }) => {
      const { page, m, details } = checkout;
      const sessionId = await checkout.startAtShop();
      const formPage = `${APP_URL}/checkout/${sessionId}`;
      // Every page the browser asks for, with its method: only the two submits may be posts.
      const navigations: string[] = [];
      page.on("request", (request) => {
        if (request.isNavigationRequest() && request.frame() === page.mainFrame()) navigations.push(`${request.method()} ${request.url()}`);
      });

      await details.fill({ email: "ana.example.com" });
      const [answer] = await Promise.all([
        page.waitForResponse((response) => response.request().method() === "POST" && response.request().isNavigationRequest()),
        details.submit(),
      ]);
      // Post/redirect/get: the post is answered 303, and the errors are a page of their own.
      expect(answer.status()).toBe(303);
      await expect(page).toHaveURL(`${formPage}?form=sent`);
      await expect(details.errorSummary.getByRole("link", { name: m.form.errors.email, exact: true })).toBeVisible();
      await expect(details.field("email")).toHaveValue("ana.example.com");
      // What was typed is personal data: not in any address.
      expect(navigations.join(" ")).not.toContain("ana.example.com");

      // A second round of errors, from that page.
      await details.fill({ email: "ana@example.com", phone: "12" });
      await details.submit();
      await expect(page).toHaveURL(`${formPage}?form=sent`);
      await expect(details.field("phone")).toHaveAccessibleDescription(literally(m.form.errors.phone));
      await expect(details.field("email")).toHaveValue("ana@example.com");
      await expect(details.errorSummary.getByRole("link", { name: m.form.errors.email, exact: true })).toHaveCount(0);

      // Reload: a GET, the same answer.
      await page.reload();
      await expect(details.field("phone")).toHaveAccessibleDescription(literally(m.form.errors.phone));
      await expect(details.field("phone")).toHaveValue("12");

      // Back, twice: pages got with GET, shown again (a page a post answered would be Chromium's
      // "Confirm Form Resubmission", ERR_CACHE_MISS, and no heading).
      await page.goBack();
      await expect(page).toHaveURL(`${formPage}?form=sent`);
      await expect(details.heading).toHaveText(m.form.title);
      await page.goBack();
      await expect(page).toHaveURL(formPage);
      await expect(details.heading).toHaveText(m.form.title);
      expect(navigations.filter((navigation) => navigation.startsWith("POST "))).toHaveLength(2);

      // Sent right, the customer goes on, and the answer is gone with it.
      await page.goForward();
      await details.complete(aCustomer());
      await expect(checkout.offers.heading).toHaveText(m.offers.title);
      await page.goto(`${formPage}?edit=1&form=sent`);
      await expect(details.errorSummary).toHaveCount(0);
    });
  });
});

test.describe("the status page's polling (/status/data)", () => {
  test("answers 304 to its ETag sent weak or in a list (RFC 9110 weak comparison), and 200 to another", async ({
    checkoutSessions,
    request,
  }) => {
    const { id } = await checkoutSessions.open({ locale: "es" });
    const data = (ifNoneMatch?: string) =>
      request.get(`/checkout/${id}/status/data`, { headers: ifNoneMatch === undefined ? {} : { "If-None-Match": ifNoneMatch } });
    const first = await data();
    expect(first.status()).toBe(200);
    const etag = first.headers().etag!;
    expect(etag).toMatch(/^"[^"]+"$/);
    for (const sent of [etag, `W/${etag}`, `"stale", ${etag}`, `"stale",W/${etag}`, "*"]) {
      const again = await data(sent);
      expect(again.status(), sent).toBe(304);
      expect(again.headers().etag, sent).toBe(etag);
    }
    expect((await data('"stale", "older"')).status()).toBe(200);
  });
});

test.describe("languages", () => {
  test.describe("a Spanish browser", () => {
    test.use({ locale: "es-ES" });

    test("gets every page in Spanish", async ({ checkout }) => {
      const { page, shop, details, offers } = checkout;
      await shop.goto();
      await expect(page.locator("html")).toHaveAttribute("lang", "es");
      await expect(shop.heading).toHaveText("Paga tu viaje a plazos");

      await shop.payInInstallments();
      await expect(details.heading).toHaveText("Tus datos");
      await expect(page.getByLabel("Correo electrónico", { exact: true })).toBeVisible();
      await expect(page.getByRole("button", { name: "Continuar", exact: true })).toBeVisible();

      await details.complete(aCustomer());
      await expect(offers.heading).toHaveText("Elige cómo pagar");
      await expect(page.getByRole("region", { name: "Ejemplo representativo" })).toBeVisible();
      await expect(page.getByText("Pedir dinero prestado cuesta dinero.").first()).toBeVisible();
      await expect(page.locator("html")).toHaveAttribute("lang", "es");
    });
  });

  test.describe("an English browser", () => {
    test.use({ locale: "en-GB" });

    test("gets every page in English", async ({ checkout }) => {
      const { page, shop, details, offers } = checkout;
      await shop.goto();
      await expect(page.locator("html")).toHaveAttribute("lang", "en");
      await expect(shop.heading).toHaveText("Pay your trip in installments");

      await shop.payInInstallments();
      await expect(details.heading).toHaveText("Your details");
      await expect(page.getByLabel("E-mail", { exact: true })).toBeVisible();

      await details.complete(aCustomer());
      await expect(offers.heading).toHaveText("Choose how to pay");
      await expect(page.getByRole("region", { name: "Representative example" })).toBeVisible();
      await expect(page.getByText("Borrowing money costs money.").first()).toBeVisible();
      await expect(page.locator("html")).toHaveAttribute("lang", "en");
    });
  });

  test("the language switch keeps what was typed in the details form, and the form still sends it", async ({ checkout }) => {
    const es = checkout;
    const en = checkout.in("en");
    await es.startAtShop();
    const typed = {
      firstName: "Ana María",
      email: "ana.maria@example.com",
      documentId: "12345678Z",
      nationality: "PRT",
      countryCode: "PRT",
    };
    await es.details.fill({ ...typed, gender: "FEMALE", documentType: "DNI" });

    await es.languageSwitcher.button("en").click();
    await expect(en.details.heading).toHaveText("Your details");
    for (const name of ["firstName", "email", "documentId", "nationality", "countryCode"] as const)
      await expect(en.details.field(name), name).toHaveValue(typed[name]);
    // The country lists are now in English, with the chosen country still chosen.
    await expect(en.details.field("nationality").locator("option:checked")).toHaveText("Portugal");
    await expect(en.details.field("documentType").locator("option:checked")).toHaveText("DNI");
    await expect(en.details.genderRadio("FEMALE")).toBeChecked();

    // The rest typed in English, then sent: the data sent is what was typed before the switch too.
    const { prefix, phone, documentValidityDate, birthDate, address, city, postalCode } = aCustomer();
    await en.details.fill({ prefix, phone, documentValidityDate, birthDate, address, city, postalCode });
    await en.details.submit();
    await expect(en.offers.heading).toHaveText("Choose how to pay");
    await en.offers.editDetails.click();
    // The correction form: the choices as chosen, typed fields masked (blank, with a hint).
    for (const name of ["nationality", "countryCode"] as const) await expect(en.details.field(name), name).toHaveValue(typed[name]);
    await expect(en.details.field("firstName")).toHaveAccessibleDescription(literally(en.m.form.keptValue.replace("{mask}", "A•••")));
    await expect(en.details.field("email")).toHaveAccessibleDescription(
      literally(en.m.form.keptValue.replace("{mask}", "a•••@example.com")),
    );
  });

  test("the language switcher changes the language, and the choice sticks across pages", async ({ checkout }) => {
    const { page } = checkout;
    const es = checkout;
    const en = checkout.in("en");

    await es.startAtShop();
    await expect(es.details.heading).toHaveText("Tus datos");
    await es.languageSwitcher.button("en").click();

    await expect(en.details.heading).toHaveText("Your details");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByLabel("E-mail", { exact: true })).toBeVisible();

    await en.details.complete(aCustomer());
    await expect(en.offers.heading).toHaveText("Choose how to pay");

    await en.chooseAndReachProvider(12, "Financiera Olivo");
    await en.provider.sign();
    await en.status.expectState("confirmed");
    await expect(en.status.heading).toHaveText("Financing confirmed");

    await en.status.backToPartner.click();
    await expect(en.shop.heading).toHaveText("Pay your trip in installments");

    // And back to Spanish, from the shop.
    await en.languageSwitcher.button("es").click();
    await expect(es.shop.heading).toHaveText("Paga tu viaje a plazos");
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
  });
});
