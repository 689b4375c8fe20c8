import { expect, test } from "./fixtures";
import { AuditPage } from "./pages/admin/security-pages";
import { APP_URL, STAFF } from "./support/app";
import { expectNoAxeViolations } from "./support/axe";

test.use({ baseURL: APP_URL, locale: "en-GB" });

/**
 * The partner's theme in the back-office: a preview of what is typed, and a theme that fails the
 * contrast checks is refused with the reason. Uses the group partner, whose theme no other test reads.
 */
test("a partner previews its theme, a failing one is refused, a good one is saved", async ({ page, admin }) => {
  const { login, theme } = admin;
  await login.goto("/admin/theme");
  await login.signIn(STAFF.group);
  await expect(theme.heading).toBeVisible();
  await expectNoAxeViolations(page, "the theme page");

  const brand = theme.color("brand");
  const onBrand = theme.color("brandContrast");
  const before = await brand.inputValue();

  // Yellow text on white: refused, with the ratio, and nothing saved.
  await brand.fill("#ffff00");
  await onBrand.fill("#ffffff");
  await theme.saveButton.click();
  await expect(theme.errorsHeading).toBeVisible();
  await expect(page.getByText(/contrast .* is below 4\.5:1/).first()).toBeVisible();
  await theme.goto();
  await expect(brand).toHaveValue(before);

  // A dark green with white text passes, and is saved.
  await brand.fill("#1b5e20");
  await onBrand.fill("#ffffff");
  await theme.previewButton.click();
  await expect(page).toHaveURL(/preview=1/);
  await expect(theme.errorsHeading).toHaveCount(0);
  await theme.saveButton.click();
  await expect(theme.savedNotice).toBeVisible();
  await expect(brand).toHaveValue("#1b5e20");

  // Put it back as it was.
  await brand.fill(before);
  await theme.saveButton.click();
  await expect(theme.savedNotice).toBeVisible();

  // The audit log has the refused save and the two saved ones, by this staff member.
  const audit = new AuditPage(page, admin.m);
  await audit.goto({ kind: "theme_changed" });
  const mine = audit.rowsWith(STAFF.group.name);
  await expect(mine.filter({ hasText: admin.m.audit.results.refused }).first()).toBeVisible();
  expect(await mine.filter({ hasText: admin.m.audit.results.ok }).count()).toBeGreaterThanOrEqual(2);
});

test("the theme page and its save action refuse anyone not signed in", async ({ page, admin, request }) => {
  await admin.theme.goto();
  await expect(page).toHaveURL(/\/admin\/login/);
  // A forged POST to the page (no session): nothing changes, the answer is no page of the theme.
  const answer = await request.post("/admin/theme", { form: { brand: "#000000" }, maxRedirects: 0 });
  expect(answer.status()).not.toBe(200);
});
