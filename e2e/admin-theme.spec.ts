import { APP_URL, STAFF, expect, expectNoAxeViolations, test, useOwnAddress } from "./admin-fixtures";

test.use({ baseURL: APP_URL, locale: "en-GB" });

/**
 * The partner's theme in the back-office: a preview of what is typed, and a theme that fails the
 * contrast checks is refused with the reason. Uses the group partner, whose theme no other test reads.
 */
test("a partner previews its theme, a failing one is refused, a good one is saved", async ({ page, admin }) => {
  await useOwnAddress(page);
  await admin.login.goto("/admin/theme");
  await admin.login.signIn(STAFF.group);
  await expect(page.getByRole("heading", { level: 1, name: admin.m.theme.title })).toBeVisible();
  await expectNoAxeViolations(page, "the theme page");

  const brand = page.getByLabel(admin.m.theme.colors.brand, { exact: true });
  const onBrand = page.getByLabel(admin.m.theme.colors.brandContrast, { exact: true });
  const before = await brand.inputValue();

  // Yellow text on white: refused, with the ratio, and nothing saved.
  await brand.fill("#ffff00");
  await onBrand.fill("#ffffff");
  await page.getByRole("button", { name: admin.m.theme.save }).click();
  await expect(page.getByRole("heading", { name: admin.m.theme.errorsTitle })).toBeVisible();
  await expect(page.getByText(/contrast .* is below 4\.5:1/).first()).toBeVisible();
  await page.goto("/admin/theme");
  await expect(brand).toHaveValue(before);

  // A dark green with white text passes, and is saved.
  await brand.fill("#1b5e20");
  await onBrand.fill("#ffffff");
  await page.getByRole("button", { name: admin.m.theme.preview }).click();
  await expect(page).toHaveURL(/preview=1/);
  await expect(page.getByRole("heading", { name: admin.m.theme.errorsTitle })).toHaveCount(0);
  await page.getByRole("button", { name: admin.m.theme.save }).click();
  await expect(page.getByText(admin.m.theme.saved)).toBeVisible();
  await expect(brand).toHaveValue("#1b5e20");

  // Put it back as it was.
  await brand.fill(before);
  await page.getByRole("button", { name: admin.m.theme.save }).click();
  await expect(page.getByText(admin.m.theme.saved)).toBeVisible();
});

test("the theme page and its save action refuse anyone not signed in", async ({ page, request }) => {
  await page.goto("/admin/theme");
  await expect(page).toHaveURL(/\/admin\/login/);
  // A forged POST to the page (no session): nothing changes, the answer is no page of the theme.
  const answer = await request.post("/admin/theme", { form: { brand: "#000000" }, maxRedirects: 0 });
  expect(answer.status()).not.toBe(200);
});
