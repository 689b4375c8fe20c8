import { MESSAGES } from "@/lib/i18n/messages";
import { expect, test } from "./fixtures";
import { PARTNER_SITE_ORIGIN, PARTNER_SITE_PORT, startPartnerSite, type PartnerSite } from "./support/partner-site";
import type { Sandbox } from "./support/sandbox";
import { euros } from "./support/text";

/*
 * The installment badge on a partner's product page (docs/integrators/badge.md): the
 * documented snippet on the partner's site (another origin), figures from our server's cached
 * simulation, compared here with what the sandbox's own simulation answers, to the cent.
 */

const m = MESSAGES.es;

let site: PartnerSite;

test.beforeAll(async () => {
  site = await startPartnerSite({ port: PARTNER_SITE_PORT });
});

test.afterAll(async () => {
  await site?.close();
});

/** What the sandbox's simulation says for a price: its lowest regular installment and that plan's count. */
async function lowestInstallment(sandbox: Sandbox, amount: string): Promise<{ installments: number; cents: number }> {
  const financialOffers = await sandbox.simulate(amount);
  const cents = financialOffers.map((offer) => ({ installments: offer.installments, cents: Math.round(offer.commonQuota * 100) }));
  return cents.sort((a, b) => a.cents - b.cents || a.installments - b.installments)[0]!;
}

test.describe("installment badge", () => {
  test("shows 'desde N × X €/mes' from the simulation, to the cent, with the representative example one click away", async ({
    page,
    request,
    sandbox,
  }) => {
    const lowest = await lowestInstallment(sandbox, "1234.5");
    expect(lowest.installments).toBe(24);

    // The JSON, as any partner could read it.
    const json = await request.get("/api/badge?partner=demo&amount=1234.50");
    expect(json.status()).toBe(200);
    const body = await json.json();
    expect(body).toMatchObject({
      visible: true,
      installments: lowest.installments,
      monthly: { amount: lowest.cents / 100, currency: "EUR" },
      price: { amount: 1234.5 },
    });
    expect(body.representativeExample).toMatchObject({ cashPrice: { amount: 1234.5, currency: "EUR" } });
    expect(JSON.stringify(body)).not.toContain("fk_test_");

    // On the partner's product page.
    await page.goto(`${site.origin}/product?partner=demo&amount=1234.50`);
    const badge = page.locator("#badge");
    const label = m.badge.from(lowest.installments, euros(lowest.cents, "es"));
    await expect(badge.getByText(label, { exact: true })).toBeVisible();
    const example = badge.getByRole("group");
    const toggle = badge.getByText(m.badge.exampleToggle, { exact: true });
    await expect(badge.getByText(m.offers.warning)).toBeHidden();
    await toggle.click();
    await expect(example).toContainText(
      /Para un crédito de .+ a \d+ meses, en \d+ cuotas mensuales de .+, con un TIN del .+ y una TAE del .+/,
    );
    await expect(example).toContainText(m.offers.warning);
    await expect(example).toContainText(/Precio al contado: 1\.?234,50\s€/);
  });

  test("hides outside 60-5,000 EUR, and follows a price that changes", async ({ page, request, sandbox }) => {
    for (const amount of ["59.99", "5000.01"]) {
      expect(await (await request.get(`/api/badge?partner=demo&amount=${amount}`)).json()).toEqual({ visible: false });
    }
    expect((await (await request.get("/api/badge?partner=demo&amount=60")).json()).visible).toBe(true);
    expect((await (await request.get("/api/badge?partner=demo&amount=5000")).json()).visible).toBe(true);

    await page.goto(`${site.origin}/product?partner=demo&amount=59.99`);
    const badge = page.locator("#badge");
    await expect(badge).toHaveAttribute("hidden", "");
    await expect(badge).toBeHidden();

    // The shopper picks an option: the price (data-amount) changes, the badge follows.
    const lowest = await lowestInstallment(sandbox, "800");
    await badge.evaluate((element) => element.setAttribute("data-amount", "800.00"));
    await expect(badge.getByText(m.badge.from(lowest.installments, euros(lowest.cents, "es")), { exact: true })).toBeVisible();
    await badge.evaluate((element) => element.setAttribute("data-amount", "6000"));
    await expect(badge).toBeHidden();
  });

  test("CORS: only the partner's own origins may read it; unknown partners and bad amounts are refused", async ({ request }) => {
    const allowed = await request.get("/api/badge?partner=demo&amount=1234.50", { headers: { Origin: PARTNER_SITE_ORIGIN } });
    expect(allowed.headers()["access-control-allow-origin"]).toBe(PARTNER_SITE_ORIGIN);
    expect(allowed.headers()["vary"]).toContain("Origin");
    expect(allowed.headers()["cache-control"]).toBe("public, max-age=300");
    const other = await request.get("/api/badge?partner=demo&amount=1234.50", { headers: { Origin: "http://127.0.0.1:9" } });
    expect(other.headers()["access-control-allow-origin"]).toBeUndefined();

    expect((await request.get("/api/badge?partner=nobody&amount=1234.50")).status()).toBe(404);
    const bad = await request.get("/api/badge?partner=demo&amount=12.345");
    expect(bad.status()).toBe(400);
    expect((await bad.json()).error.fields).toEqual([{ field: "amount", message: "must be an amount in EUR like 1234.50" }]);
  });

  test("in English, for an English page", async ({ page, sandbox }) => {
    const lowest = await lowestInstallment(sandbox, "1234.5");
    await page.goto(`${site.origin}/product?partner=demo&amount=1234.50&lang=en`);
    await expect(
      page.locator("#badge").getByText(MESSAGES.en.badge.from(lowest.installments, euros(lowest.cents, "en")), { exact: true }),
    ).toBeVisible();
  });
});
