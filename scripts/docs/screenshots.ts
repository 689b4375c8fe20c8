// Over 400 lines: one script that sets the scene and photographs every guide page in order; its steps share one browser and one app.
/**
 * `npm run docs:screenshots`: the docs' screenshots, taken from the app itself, so they show the
 * product as it is. Run it after `npm run build`; it starts the built app on E2E_PORT (3100 unless
 * set; the port must be free) with a data folder of its own, so the sandbox and the demo accounts
 * are fresh, then, in the system Chromium (as the e2e tests find it):
 *
 * 1. sets the scene as the e2e tests do (their page objects and clients, e2e/pages and
 *    e2e/support): checkouts completed, chosen, refused and opened through the checkout sessions API
 *    and a customer's browser, with the plan choice photographed on a 390 px phone on the way; then
 *    the demo admin of Viajes Aurora signs in (password and TOTP code), cancels one operation,
 *    refunds another and creates a payment link;
 * 2. photographs each page of the back-office guide in English and in Spanish (the viewport, at
 *    1280 × 800: what a reader needs, at a small size), into docs/staff/img/<language>/.
 *
 * The list of images is scripts/docs/screenshot-list.ts; scripts/docs/screenshots.test.ts checks that
 * the guides show exactly those. Nothing here is a test: a page that does not look as expected stops
 * the script with the page object's message.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, expect, request, type Browser, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { Backoffice } from "../../e2e/pages/admin/backoffice";
import { EnrolmentLinkPages } from "../../e2e/pages/admin/security-pages";
import { StaffPages } from "../../e2e/pages/admin/staff-pages";
import { CheckoutPages } from "../../e2e/pages/checkout-pages";
import { APP_PORT, APP_URL, STAFF } from "../../e2e/support/app";
import { CheckoutSessionsApi } from "../../e2e/support/checkout-sessions";
import { Sandbox } from "../../e2e/support/sandbox";
import { aCustomer, isoDayFromToday } from "../../e2e/support/test-data";
import { LOCALE_COOKIE } from "@/lib/i18n/locales";
import { findChromium, INSTALL_HINT, LAUNCH_ARGS } from "../chromium.mjs";
import {
  CHECKOUT_PHONE_IMAGE,
  declaredImages,
  GUIDE_LANGUAGES,
  staffImage,
  STAFF_SHOTS,
  type GuideLanguage,
  type StaffShot,
} from "./screenshot-list";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
/** The sign-in's pages are short: their top is the picture. */
const SHORT_PAGE = 560;
const say = (line: string) => process.stdout.write(`[screenshots] ${line}\n`);

/** The scene's bookings: fixed references, so the pictures read the same from one run to the next. */
const BOOKINGS = {
  confirmed: { reference: "AUR-10482", customer: { firstName: "Ana", lastName: "García López", email: "ana.garcia@example.com" } },
  details: { reference: "AUR-10483", customer: { firstName: "Javier", lastName: "Ortiz Ruiz", email: "javier.ortiz@example.com" } },
  refused: {
    reference: "AUR-10484",
    customer: { firstName: "Marta", lastName: "Soler Vidal", email: "marta.soler+refuse_all@example.com" },
  },
  opened: { reference: "AUR-10485", customer: { firstName: "Pablo", lastName: "Fernández Gil", email: "pablo.fernandez@example.com" } },
  refunded: { reference: "AUR-10479", customer: { firstName: "Elena", lastName: "Martín Rubio", email: "elena.martin@example.com" } },
  cancelled: { reference: "AUR-10480", customer: { firstName: "Sergio", lastName: "Navarro Pons", email: "sergio.navarro@example.com" } },
} as const;

/** The payment link staff make for a customer on the phone. */
const PAYMENT_LINK = {
  reference: "AUR-10490",
  packageName: "Roma, 3 noches",
  travellers: 2,
  total: "980.00",
  flight: { origin: "BCN", destination: "FCO", departureDate: isoDayFromToday({ years: 1, days: 30 }) },
  customer: { firstName: "Laura", lastName: "Gil Serrano", email: "laura.gil@example.com", phone: "+34 611 222 333" },
  locale: "es" as const,
};

/** Who the admin invites, one per language: the invitation's link, and the enrolment it opens. */
const INVITEES: Record<GuideLanguage, { email: string; name: string; role: "admin" | "agent"; canRefund: boolean }> = {
  en: { email: "irene.castro@viajes-aurora.example", name: "Irene Castro", role: "agent", canRefund: false },
  es: { email: "tomas.prieto@viajes-aurora.example", name: "Tomás Prieto", role: "agent", canRefund: true },
};

const TEXT: Record<GuideLanguage, { cancelReason: string; agencyFee: string; providerFee: string; refundReason: string }> = {
  en: {
    cancelReason: "The customer is travelling on other dates",
    agencyFee: "25.50",
    providerFee: "10",
    refundReason: "Trip cancelled by the hotel",
  },
  es: {
    cancelReason: "El cliente viaja en otras fechas",
    agencyFee: "25,50",
    providerFee: "10",
    refundReason: "Viaje cancelado por el hotel",
  },
};

// ---------------------------------------------------------------------------------------------
// The app

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/** The built app on APP_PORT, as playwright.config.ts starts it, on a data folder of its own. */
async function startApp(dataDir: string): Promise<ChildProcess> {
  const health = `http://127.0.0.1:${APP_PORT}/api/health`;
  if (await answers(health)) throw new Error(`Something already answers on port ${APP_PORT}: stop it, or set E2E_PORT to a free port.`);
  try {
    statSync(path.join(ROOT, ".next/server-entry.mjs"));
  } catch {
    throw new Error("No build: run `npm run build` first.");
  }
  const child = spawn(process.execPath, [".next/server-entry.mjs"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(APP_PORT),
      DATA_DIR: dataDir,
      // The pages as a deployment with a mail server shows them (the e-mail forms); nothing is sent.
      SMTP_URL: "smtp://127.0.0.1:9",
      // Nobody balances this instance: it may stop at once.
      SHUTDOWN_DRAIN_DELAY_MS: "0",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let waited = 0; waited < 180_000; waited += 500) {
    if (child.exitCode !== null) throw new Error(`The app exited (${child.exitCode}) while starting.`);
    if (await answers(health)) return child;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`The app did not answer ${health} within 3 minutes.`);
}

async function stopApp(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

// ---------------------------------------------------------------------------------------------
// Pictures

/** The viewport (or its top `height` pixels: a short page's empty rest says nothing). */
async function save(page: Page, file: string, height?: number): Promise<void> {
  mkdirSync(path.dirname(path.join(ROOT, file)), { recursive: true });
  // No focus ring left on the field typed in last.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const clip = height === undefined ? undefined : { x: 0, y: 0, width: page.viewportSize()!.width, height };
  await page.screenshot({ path: path.join(ROOT, file), animations: "disabled", caret: "hide", ...(clip ? { clip } : {}) });
  say(`${file} (${Math.round(statSync(path.join(ROOT, file)).size / 1024)} KB)`);
}

/** The page scrolled to show `locator` near the top, then the viewport. */
async function viewportAt(page: Page, locator: Locator): Promise<void> {
  await locator.evaluate((element) => element.scrollIntoView({ block: "start" }));
  await page.evaluate(() => window.scrollBy(0, -16));
}

function newContext(browser: Browser, language: GuideLanguage, options: { phone?: boolean } = {}): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: APP_URL,
    locale: language === "es" ? "es-ES" : "en-GB",
    timezoneId: "Europe/Madrid",
    viewport: options.phone ? PHONE : DESKTOP,
    deviceScaleFactor: 1,
    ...(options.phone ? { isMobile: true, hasTouch: true } : {}),
  });
}

// ---------------------------------------------------------------------------------------------
// The scene

interface Scene {
  /** Operation ids, by booking. */
  operations: Record<"confirmed" | "details", string>;
  /** The payment link's page, `/admin/payment-links/cs_…`. */
  paymentLinkPage: string;
}

/** A customer's checkout, from the partner's session to the step `until`. */
async function customerCheckout(
  checkout: CheckoutPages,
  sessions: CheckoutSessionsApi,
  booking: (typeof BOOKINGS)[keyof typeof BOOKINGS],
  until: "opened" | "details" | "confirmed" | "refused",
  onOffers?: () => Promise<void>,
): Promise<string | undefined> {
  const session = await sessions.open({ reference: booking.reference, customer: aCustomer(booking.customer), locale: "en" });
  if (until === "opened") return undefined;
  await checkout.page.goto(session.url);
  await checkout.details.submit();
  await expect(checkout.page).toHaveURL(/\/offers$/);
  if (onOffers) await onOffers();
  if (until === "refused") {
    await checkout.offers.choose(12, "Financiera Olivo");
    await checkout.status.expectState("refused");
  } else if (until === "confirmed") {
    await checkout.chooseAndReachProvider(12, "Financiera Olivo");
    await checkout.provider.sign();
    await checkout.status.expectState("confirmed");
  }
  const { operation } = await sessions.read(session.id);
  return operation?.id;
}

async function setScene(browser: Browser, admin: Backoffice): Promise<Scene> {
  const api = await request.newContext({ baseURL: APP_URL });
  await new Sandbox(api).waitUntilServed();
  const sessions = new CheckoutSessionsApi(api);

  // The customers, on a phone; the first one's plan choice is the README's picture.
  const phone = await newContext(browser, "en", { phone: true });
  const checkout = new CheckoutPages(await phone.newPage(), "en");
  const confirmed = await customerCheckout(checkout, sessions, BOOKINGS.confirmed, "confirmed", async () => {
    await checkout.offers.showInstallments(12);
    await checkout.page.evaluate(() => window.scrollTo(0, 0));
    await save(checkout.page, CHECKOUT_PHONE_IMAGE);
  });
  const details = await customerCheckout(checkout, sessions, BOOKINGS.details, "details");
  await customerCheckout(checkout, sessions, BOOKINGS.refused, "refused");
  await customerCheckout(checkout, sessions, BOOKINGS.opened, "opened");
  const refunded = await customerCheckout(checkout, sessions, BOOKINGS.refunded, "confirmed");
  const cancelled = await customerCheckout(checkout, sessions, BOOKINGS.cancelled, "details");
  await phone.close();
  if (!confirmed || !details || !refunded || !cancelled) throw new Error("A checkout made no operation.");

  // Staff at work: a cancel, a refund and a payment link, for the lists and the audit log.
  const { page } = admin;
  await admin.operation.goto(cancelled);
  await admin.operation.cancel(TEXT.en.cancelReason);
  await admin.operation.expectStatus("CANCELLED");
  await page.goto(`/admin/operations/${refunded}/refund`);
  await admin.refund.agencyFee.fill(TEXT.en.agencyFee);
  await admin.refund.providerFee.fill(TEXT.en.providerFee);
  await admin.refund.reason.fill(TEXT.en.refundReason);
  await admin.refund.review.click();
  await admin.refund.confirm.click();
  await expect(admin.refund.stepHeading).toHaveText(admin.m.refundForm.doneTitle, { timeout: 20_000 });
  await admin.paymentLinks.gotoNew();
  await admin.paymentLinks.createLink(PAYMENT_LINK);
  const paymentLinkPage = new URL(page.url()).pathname;
  await api.dispose();
  return { operations: { confirmed, details }, paymentLinkPage };
}

// ---------------------------------------------------------------------------------------------
// The guide's pictures

interface ShotContext {
  language: GuideLanguage;
  browser: Browser;
  /** The signed-in admin, in this language. */
  admin: Backoffice;
  staff: StaffPages;
  scene: Scene;
  file: string;
  /** The invitee's one-time link, once "invitation" has run. */
  invitationLink?: string;
}

type Shot = (context: ShotContext) => Promise<void>;

/**
 * Each picture of the guide: where it is taken and what is on screen, taken in the declared list's
 * order (the enrolment after the invitation whose link it opens). The type makes this cover the
 * declared list exactly.
 */
const SHOTS: Record<StaffShot, Shot> = {
  "sign-in": async ({ browser, language, file }) => {
    const context = await newContext(browser, language);
    const signedOut = new Backoffice(await context.newPage(), language);
    await signedOut.login.goto();
    await signedOut.login.expectShown();
    await save(signedOut.page, file, SHORT_PAGE);
    await context.close();
  },
  "second-step": async ({ browser, language, file }) => {
    const context = await newContext(browser, language);
    const signingIn = new Backoffice(await context.newPage(), language);
    await signingIn.login.goto();
    await signingIn.login.signInPasswordOnly(STAFF.aurora);
    await expect(signingIn.login.code).toBeVisible();
    await save(signingIn.page, file, SHORT_PAGE);
    await context.close();
  },
  home: async ({ admin, file }) => {
    await admin.page.goto("/admin");
    await expect(admin.overview.funnelChart).toBeVisible();
    await save(admin.page, file);
  },
  operations: async ({ admin, file }) => {
    await admin.operations.goto();
    await expect(admin.operations.table).toBeVisible();
    await viewportAt(admin.page, admin.page.getByRole("heading", { name: admin.m.operations.searchHeading }));
    await save(admin.page, file);
  },
  operation: async ({ admin, scene, file }) => {
    await admin.operation.goto(scene.operations.confirmed);
    await admin.operation.expectOperation(BOOKINGS.confirmed.reference);
    await save(admin.page, file);
  },
  cancel: async ({ admin, scene, language, file }) => {
    await admin.operation.goto(scene.operations.details);
    await admin.operation.expectOperation(BOOKINGS.details.reference);
    await admin.operation.reason.fill(TEXT[language].cancelReason);
    await viewportAt(admin.page, admin.operation.cancelSection);
    await save(admin.page, file);
  },
  refund: async ({ admin, scene, language, file }) => {
    await admin.page.goto(`/admin/operations/${scene.operations.confirmed}/refund`);
    await admin.refund.agencyFee.fill(TEXT[language].agencyFee);
    await admin.refund.providerFee.fill(TEXT[language].providerFee);
    await admin.refund.reason.fill(TEXT[language].refundReason);
    await expect(admin.refund.liveTotal).toBeVisible();
    await viewportAt(admin.page, admin.page.getByRole("heading", { name: admin.m.refundForm.breakdownHeading }));
    await save(admin.page, file);
  },
  "refund-review": async ({ admin, file }) => {
    // Straight after "refund": the charges typed there, reviewed; never confirmed.
    await admin.refund.review.click();
    await expect(admin.refund.confirm).toBeVisible();
    await save(admin.page, file);
  },
  simulator: async ({ admin, file }) => {
    await admin.page.goto(`/admin/simulator?amount=${PAYMENT_LINK.total}&country=ESP`);
    await expect(admin.simulator.resultsHeading).toBeVisible();
    await viewportAt(admin.page, admin.simulator.heading);
    await save(admin.page, file);
  },
  "payment-link-new": async ({ admin, file }) => {
    await admin.paymentLinks.gotoNew();
    await admin.paymentLinks.fill({ ...PAYMENT_LINK, reference: "AUR-10491", packageName: "Sevilla, 2 noches", total: "420.00" });
    await viewportAt(admin.page, admin.paymentLinks.heading);
    await save(admin.page, file);
  },
  "payment-link": async ({ admin, scene, file }) => {
    await admin.page.goto(scene.paymentLinkPage);
    await expect(admin.paymentLinks.qr).toBeVisible();
    await save(admin.page, file);
  },
  "payment-link-email": async ({ admin, scene, file }) => {
    await admin.page.goto(scene.paymentLinkPage);
    await expect(admin.paymentLinks.send).toBeVisible();
    await viewportAt(admin.page, admin.page.getByRole("heading", { name: admin.paymentLinks.t.details, exact: true }));
    await save(admin.page, file);
  },
  notifications: async ({ admin, file }) => {
    await admin.notifications.goto();
    await expect(admin.notifications.table).toBeVisible();
    await save(admin.page, file);
  },
  audit: async ({ admin, file }) => {
    await admin.page.goto("/admin/audit");
    await expect(admin.page.getByRole("table", { name: admin.m.audit.caption })).toBeVisible();
    await save(admin.page, file);
  },
  team: async ({ staff, file }) => {
    await staff.goto();
    await save(staff.page, file);
  },
  invitation: async (context) => {
    const { staff, language, file } = context;
    await staff.goto();
    // With a mail server the form offers e-mail too: the guide shows the link handed over.
    await staff.page.getByLabel(staff.s.inviteForm.deliveryLink, { exact: true }).check();
    context.invitationLink = await staff.inviteByLink(INVITEES[language]);
    await viewportAt(staff.page, staff.invitation);
    await save(staff.page, file);
  },
  "team-member": async ({ staff, file }) => {
    await staff.goto();
    await staff.manage(STAFF.agent.name);
    await save(staff.page, file);
  },
  enrolment: async ({ browser, language, invitationLink, file }) => {
    if (!invitationLink) throw new Error("The enrolment is photographed after the invitation.");
    const context = await newContext(browser, language);
    const page = await context.newPage();
    const enrol = new EnrolmentLinkPages(page, new Backoffice(page, language).m);
    await page.goto(invitationLink);
    await enrol.start.click();
    await expect(enrol.qr).toBeVisible();
    await save(page, file);
    await context.close();
  },
  "api-secrets": async ({ admin, file }) => {
    await admin.page.goto("/admin/settings/api-secrets");
    await expect(admin.page.getByRole("heading", { level: 1 })).toBeVisible();
    await save(admin.page, file);
  },
  security: async ({ admin, file }) => {
    await admin.page.goto("/admin/security");
    await expect(admin.page.getByRole("heading", { level: 1 })).toHaveText(admin.m.security.title);
    await save(admin.page, file);
  },
};

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const found = findChromium(process.env);
  if (found.path === null) throw new Error(`${found.error} ${INSTALL_HINT}`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "travel-checkout-screenshots-"));
  let app: ChildProcess | undefined;
  let browser: Browser | undefined;
  try {
    say(`Starting the built app on ${APP_URL} (data in ${dataDir})...`);
    app = await startApp(dataDir);
    browser = await chromium.launch({ executablePath: found.path, args: [...LAUNCH_ARGS] });

    // One admin session for both languages: the language is the cookie the switcher sets, set below.
    const staffContext = await newContext(browser, "en");
    const staffPage = await staffContext.newPage();
    const english = new Backoffice(staffPage, "en");
    await english.signIn(STAFF.aurora);
    say("Setting the scene (checkouts, a cancel, a refund, a payment link)...");
    const scene = await setScene(browser, english);

    const taken = new Set<string>([CHECKOUT_PHONE_IMAGE]);
    for (const language of GUIDE_LANGUAGES) {
      await staffContext.addCookies([{ name: LOCALE_COOKIE, value: language, url: APP_URL }]);
      const context: ShotContext = {
        language,
        browser,
        admin: new Backoffice(staffPage, language),
        staff: new StaffPages(staffPage, language),
        scene,
        file: "",
      };
      for (const shot of STAFF_SHOTS) {
        context.file = staffImage(language, shot);
        await SHOTS[shot](context);
        taken.add(context.file);
      }
    }
    const missing = declaredImages().filter((file) => !taken.has(file));
    if (missing.length > 0) throw new Error(`Not taken: ${missing.join(", ")}`);
    say(`${taken.size} images written.`);
  } finally {
    await browser?.close();
    if (app) await stopApp(app);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`[screenshots] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
