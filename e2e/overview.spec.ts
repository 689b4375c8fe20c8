import { FUNNEL_STEPS, type FunnelCounts } from "@/lib/backoffice/operations/overview-steps";
import { ADMIN_TIME_ZONE } from "@/lib/backoffice/common/format";
import { expect, test } from "./fixtures";
import { Backoffice } from "./pages/admin/backoffice";
import { APP_URL, DEMO_PARTNERS, STAFF } from "./support/app";
import { expectNoAxeViolations } from "./support/axe";
import { horizontalOverflow } from "./support/layout";
import { aCustomer } from "./support/test-data";

/*
 * The back-office home's overview (lib/backoffice/operations/overview.ts): the last 30 days of the partner's
 * checkout sessions as a funnel and as daily volumes, drawn on the server as SVG, with tables of the
 * same figures. Drawn without JavaScript too; the figures move by exactly the checkouts this test
 * makes (the specs of a run share one app, one at a time), and another partner's do not count.
 */

test.use({ baseURL: APP_URL, locale: "en-GB" });
test.describe.configure({ mode: "serial" });

function difference(after: FunnelCounts, before: FunnelCounts): FunnelCounts {
  const counts = { ...after };
  for (const step of FUNNEL_STEPS) counts[step] = after[step] - before[step];
  return counts;
}

/** Today in Madrid, `YYYY-MM-DD` (the Canadian English format is ISO's). */
function madridToday(): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: ADMIN_TIME_ZONE }).format(new Date());
}

test("the funnel and the daily volumes count the checkouts made, drawn on the server without JavaScript", async ({
  browser,
  page,
  checkout,
  checkoutSessions,
}) => {
  test.setTimeout(180_000);
  // The staff member's browser runs no script at all; the customer's is an ordinary one.
  const staffContext = await browser.newContext({ baseURL: APP_URL, locale: "en-GB", javaScriptEnabled: false });
  const staffPage = await staffContext.newPage();
  const admin = new Backoffice(staffPage, "en");
  const { overview } = admin;
  await admin.signIn(STAFF.aurora);

  await expect(overview.funnelChart).toBeVisible();
  await expect(overview.dailyChart).toBeVisible();
  const before = await overview.funnel();
  const daysBefore = await overview.days();

  // Opened only.
  await checkoutSessions.open({ locale: "en" });
  // Details given (the partner prefilled them; the customer sends them).
  const detailsOnly = await checkoutSessions.open({ locale: "en" });
  await page.goto(detailsOnly.url);
  await checkout.details.submit();
  await expect(page).toHaveURL(/\/offers$/);
  // A plan chosen, signed at the provider, confirmed.
  const confirmed = await checkoutSessions.open({ locale: "en" });
  await page.goto(confirmed.url);
  await checkout.details.submit();
  await checkout.chooseAndReachProvider(12, "Financiera Olivo");
  await checkout.provider.sign();
  await checkout.status.expectState("confirmed");
  // A plan chosen and refused by every provider, without reaching a signature.
  const refused = await checkoutSessions.open({ locale: "en", customer: aCustomer({ email: "ana+refuse_all@example.com" }) });
  await page.goto(refused.url);
  await checkout.details.submit();
  await checkout.offers.choose(12, "Financiera Olivo");
  await checkout.status.expectState("refused");
  // Another partner's session: not Viajes Aurora's to count.
  await checkoutSessions.as(DEMO_PARTNERS["demo-blue"]).open({ locale: "en" });

  await staffPage.reload();
  const after = await overview.funnel();
  expect(difference(after, before)).toEqual({ opened: 4, detailsGiven: 3, planChosen: 2, signed: 1, confirmed: 1, refused: 1, expired: 0 });

  // Thirty days, today (in Madrid) last, every day a row even without sessions; the days add up to the funnel.
  const days = await overview.days();
  expect(days).toHaveLength(30);
  expect(days.at(-1)!.day).toBe(madridToday());
  expect(days.reduce((sum, d) => sum + d.opened, 0)).toBe(after.opened);
  expect(days.reduce((sum, d) => sum + d.confirmed, 0)).toBe(after.confirmed);
  if (daysBefore.at(-1)!.day === days.at(-1)!.day) {
    expect(days.at(-1)!.opened - daysBefore.at(-1)!.opened).toBe(4);
    expect(days.at(-1)!.confirmed - daysBefore.at(-1)!.confirmed).toBe(1);
  }

  // The images carry the same figures: a description naming each step's count, a bar per day.
  await expect(overview.funnelChart).toHaveAccessibleDescription(
    `Checkout sessions by step reached: Sessions opened ${after.opened}, Details given ${after.detailsGiven}, Plan chosen ${after.planChosen}, Signed ${after.signed}, Confirmed ${after.confirmed}, Refused ${after.refused}, Expired ${after.expired}.`,
  );
  await expect(overview.dailyChart).toHaveAccessibleDescription(
    new RegExp(`^${after.opened} sessions opened, ${after.confirmed} confirmed\\.`),
  );
  await expect(overview.dailyChart.locator("g[data-day]")).toHaveCount(30);
  // The health figures are still there, below.
  await expect(admin.health.heading).toBeVisible();
  await expect(admin.health.value(admin.m.health.database)).toHaveText(admin.m.health.databaseOk);
  await staffContext.close();
});

test("the home with its overview has no axe violations, in both languages, and fits a phone's width", async ({ browser }) => {
  for (const [locale, language] of [
    ["en-GB", "en"],
    ["es-ES", "es"],
  ] as const) {
    const context = await browser.newContext({ baseURL: APP_URL, locale, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const admin = new Backoffice(page, language);
    await admin.signIn(STAFF.aurora);
    await expect(admin.overview.funnelChart).toBeVisible();
    await expect(admin.overview.dailyTable.locator("tbody tr")).toHaveCount(30);
    await expectNoAxeViolations(page, `the home with its overview (${language})`);
    expect(await horizontalOverflow(page)).toBe(0);
    await page.setViewportSize({ width: 1280, height: 900 });
    await expectNoAxeViolations(page, `the home with its overview at 1280 px (${language})`);
    await context.close();
  }
});
