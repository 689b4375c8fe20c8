import { expect, test } from "@playwright/test";
import { GUIDES } from "@/lib/docs/guides";

/**
 * /docs opens on the API reference itself (Scalar's bundle once mounted a second, empty reference
 * of its own above ours: a loading skeleton a screen tall, with an "Ask AI" button), and links the
 * guides, which this app serves from the repository's Markdown.
 */
test("/docs opens on the reference, with the guides linked above it", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/docs");
  const title = page.getByRole("heading", { level: 1, name: "Checkout sessions API" });
  await expect(title).toBeVisible();
  await expect(page.getByRole("heading", { name: "Open a checkout session" })).toBeAttached();
  // On the first screen, near its top: nothing stands above the reference but the guides' bar.
  const box = await title.boundingBox();
  expect(box!.y).toBeLessThan(250);
  // One reference on the page: no second, unconfigured one (its agent's button was its sign).
  await expect(page.getByRole("button", { name: "Ask AI" })).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);

  const guides = page.getByRole("navigation", { name: "Guides" });
  for (const guide of GUIDES) await expect(guides.getByRole("link", { name: guide.title })).toBeVisible();
});

for (const guide of GUIDES) {
  test(`the guide "${guide.title}" is served from the repository's Markdown, and leads back to the reference`, async ({ page }) => {
    // The reference's 3.5 MB bundle runs twice here: on a loaded 2-core machine that alone took most of 30 s.
    test.slow();
    await page.goto("/docs");
    await page.getByRole("navigation", { name: "Guides" }).getByRole("link", { name: guide.title }).click();
    await expect(page).toHaveURL(new RegExp(`/docs/guides/${guide.slug}$`));
    await expect(page).toHaveTitle(guide.title);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(guide.section ?? /./);
    await page.getByRole("navigation", { name: "Documentation" }).getByRole("link", { name: "API reference" }).click();
    // Scalar renders the reference from its 3.5 MB bundle: over 5 s on a loaded 2-core machine.
    await expect(page.getByRole("heading", { level: 1, name: "Checkout sessions API" })).toBeVisible({ timeout: 15_000 });
  });
}

test("an unknown guide is a 404", async ({ request }) => {
  expect((await request.get("/docs/guides/nothing-here")).status()).toBe(404);
  expect((await request.get("/docs/guides/..%2F..%2Fpackage.json")).status()).toBe(404);
});
