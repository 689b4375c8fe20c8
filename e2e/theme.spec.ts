import type { Locator } from "@playwright/test";
import { expect, test } from "./fixtures";
import { DEMO_PARTNERS } from "./support/app";
import { aBookingReference } from "./support/test-data";

/*
 * White-label themes: each partner's checkout in its own colours, font, corners and logo (the two
 * sandbox demo partners, seeded with different themes), across the steps of the checkout.
 */

function rgb(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}

const style = (locator: Locator, property: string) =>
  locator.evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property);

test.use({ locale: "es-ES" });

test("two partners' checkouts, each in its own theme, on every step", async ({ page, checkout, checkoutSessions }) => {
  const { m, details, offers } = checkout;
  const seen: Record<string, { button: string; canvas: string; font: string }> = {};

  for (const [id, partner] of Object.entries(DEMO_PARTNERS)) {
    const session = await checkoutSessions.as(partner).open({ reference: aBookingReference("THEME"), locale: "es" });
    await details.goto(session.id);
    const banner = page.getByRole("banner");
    await expect(banner).toContainText(partner.name);
    await expect(banner.locator("img")).toHaveAttribute("src", partner.theme.logoUrl!);
    expect(await banner.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    const submit = details.continueButton;
    await expect(submit).toHaveCSS("background-color", rgb(partner.theme.brand));
    await expect(submit).toHaveCSS("color", rgb(partner.theme.brandContrast));
    await expect(submit).toHaveCSS("border-top-left-radius", `${Math.round((partner.theme.radius * 2) / 3)}px`);
    await expect(page.locator("html")).toHaveCSS("background-color", rgb(partner.theme.canvas));
    await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toHaveCSS("color", rgb(partner.theme.ink));
    await expect(details.bookingSummary).toHaveCSS("border-top-left-radius", `${partner.theme.radius}px`);
    seen[id] = {
      button: await style(submit, "background-color"),
      canvas: await style(page.locator("html"), "background-color"),
      font: await style(page.locator("body"), "font-family"),
    };

    // The next step comes by a server action and a client-side navigation: still the partner's colours.
    await submit.click();
    await expect(offers.heading).toHaveText(m.offers.title);
    await page.mouse.move(0, 0); // not hovering a button (hover takes the darker shade)
    await expect(offers.chooseButtons.first()).toHaveCSS("background-color", rgb(partner.theme.brand));
    await expect(page.locator("html")).toHaveCSS("background-color", rgb(partner.theme.canvas));
  }

  expect(seen.demo!.button).not.toBe(seen["demo-blue"]!.button);
  expect(seen.demo!.canvas).not.toBe(seen["demo-blue"]!.canvas);
  expect(seen.demo!.font).not.toBe(seen["demo-blue"]!.font);
  expect(seen["demo-blue"]!.font).toMatch(/^Seravek/);
});

test("theme stylesheets: a partner's, versioned and cached for good; a preview's, scoped; a malformed one refused", async ({
  request,
  checkoutSessions,
}) => {
  const session = await checkoutSessions.as(DEMO_PARTNERS["demo-blue"]).open({ reference: aBookingReference("THEME"), locale: "es" });
  const html = await (await request.get(`/checkout/${session.id}`)).text();
  const href = /<link rel="stylesheet" href="(\/embed\/theme\.css\?partner=demo-blue&amp;v=\w+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&");
  expect(href, "the page links its partner's theme").toBeTruthy();

  const css = await request.get(href!);
  expect(css.status()).toBe(200);
  expect(css.headers()["content-type"]).toContain("text/css");
  expect(await css.text()).toContain("--color-brand:#1d4ed8");
  expect(css.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  // Another (an old) version: the current theme, cached briefly.
  expect((await request.get("/embed/theme.css?partner=demo-blue&v=old")).headers()["cache-control"]).toBe("public, max-age=60");

  const preview = await request.get(
    "/embed/theme.css?preview=1&brand=%23aa0000&brandContrast=%23ffffff&ink=%23111111&surface=%23ffffff&canvas=%23fafafa&muted=%23555555&font=serif&radius=0",
  );
  expect(preview.status()).toBe(200);
  expect(await preview.text()).toMatch(/^\[data-theme-preview="\w+"\]\{--color-brand:#aa0000;/);

  const injected = await request.get(
    `/embed/theme.css?preview=1&brand=${encodeURIComponent("red;}body{display:none")}&brandContrast=%23ffffff&ink=%23111111&surface=%23ffffff&canvas=%23fafafa&muted=%23555555`,
  );
  expect(injected.status()).toBe(400);
  expect(await injected.text()).not.toContain("display:none");
});
