import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { sessionIdHint } from "@/lib/backoffice/common/format";
import { expect, test } from "./fixtures";
import { Backoffice } from "./pages/admin/backoffice";
import type { CreateOperationOptions, Sandbox } from "./support/sandbox";
import { APP_URL, STAFF } from "./support/app";
import { expectNoAxeViolations } from "./support/axe";
import { horizontalOverflow } from "./support/layout";
import { aBookingReference, aCustomer, fullName, TEST_BOOKING } from "./support/test-data";
import { cents, literally } from "./support/text";

/*
 * The partner back-office as agency staff use it, against the bundled sandbox: each test
 * creates its own operations through the sandbox's partner API and moves them with its control API
 * (or as a customer would), then works on them through the back-office's pages only.
 *
 * Between them, the tests reach every partner API endpoint from the UI: GET /health (health page),
 * GET /financing/simulate (simulator), GET /operations (list, CSV), GET /operations/by-external-id
 * (search; an operation's amounts), GET /operations/{id}/status (operation page), GET
 * /financing/{id} (an operation's plans), POST /operations/{id}/cancel, GET
 * /operations/{id}/refund/details and POST /operations/{id}/refund (refund), GET /agencies (agency
 * switcher); POST /operations and POST /financing through the checkout a customer completes, and
 * the webhook acknowledgement through the webhook receiver (the operation page shows it).
 */

/** A CONFIRMED operation created at the sandbox, its page open to Viajes Aurora's staff. */
async function confirmedOperationOpened(admin: Backoffice, sandbox: Sandbox, options?: CreateOperationOptions) {
  const op = await sandbox.createOperation(options);
  await sandbox.confirm(op.id);
  await admin.signIn(STAFF.aurora);
  await admin.openByReference(op.externalId);
  return op;
}

test.use({ baseURL: APP_URL, locale: "en-GB" });

/** Every page of the back-office, with placeholders where an operation id goes. */
const PAGES = [
  "/admin",
  "/admin/simulator",
  "/admin/simulator?amount=1000&country=ESP",
  "/admin/operations",
  "/admin/operations?status=CONFIRMED",
  "/admin/operations/op_unknown",
  "/admin/operations/op_unknown/refund",
  "/admin/security",
  "/admin/security/password",
  "/admin/audit",
];

test.describe("access", () => {
  test("without a session every page and the CSV export lead to the sign-in, and nothing is shown", async ({ page, admin, request }) => {
    for (const path of PAGES) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await admin.login.expectShown();
      expect(new URL(page.url()).searchParams.get("next"), path).toBe(path);
      await expect(page.getByRole("main")).not.toContainText(STAFF.aurora.partner);
    }
    // A cookie that opens no session is the same as none.
    await page.context().addCookies([{ name: "staff_session", value: "x".repeat(43), url: APP_URL }]);
    await page.goto("/admin/operations");
    await admin.login.expectShown();
    await expect(page.getByText(admin.m.login.expired)).toBeVisible();

    const csv = await request.get("/admin/operations/export", { maxRedirects: 0 });
    expect(csv.status()).toBe(303);
    expect(csv.headers()["location"]).toMatch(/^\/admin\/login\?next=/);
    expect(csv.headers()["content-type"] ?? "").not.toContain("text/csv");
  });

  test("every action is refused once the session is gone, and changes nothing", async ({ page, admin, sandbox }) => {
    // Four sign-ins with their codes (a password check is seconds of scrypt on a busy machine).
    test.setTimeout(90_000);
    const generated = await sandbox.createOperation();
    const confirmed = await sandbox.createOperation();
    await sandbox.confirm(confirmed.id);

    // Cancel.
    await admin.signIn(STAFF.aurora);
    await admin.openByReference(generated.externalId);
    await page.context().clearCookies();
    await admin.operation.cancel("Signed out in another tab");
    await admin.login.expectShown();
    expect(await sandbox.status(generated.id)).toBe("GENERATED");

    // Refund: the review step, then the confirmation.
    await admin.signIn(STAFF.aurora);
    await admin.openByReference(confirmed.externalId);
    await admin.operation.refundLink.click();
    await page.context().clearCookies();
    await admin.refund.agencyFee.fill("10");
    await admin.refund.review.click();
    await admin.login.expectShown();
    await admin.signIn(STAFF.aurora);
    await admin.openByReference(confirmed.externalId);
    await admin.operation.refundLink.click();
    await admin.refund.review.click();
    await expect(admin.refund.confirm).toBeVisible();
    await page.context().clearCookies();
    await admin.refund.confirm.click();
    await admin.login.expectShown();
    expect(await sandbox.status(confirmed.id)).toBe("CONFIRMED");

    // The agency switch (a group key's staff).
    await admin.signIn(STAFF.group);
    await page.context().clearCookies();
    await admin.shell.agency.selectOption({ label: admin.m.common.agencyOption("Viajes Aurora", 101) });
    await admin.shell.switchAgencyButton.click();
    await admin.login.expectShown();
    await admin.signIn(STAFF.group);
    await expect(admin.shell.agency).toHaveValue("102");

    // Sign-out, then the old cookie again: its session was deleted, not only the cookie.
    const [cookie] = await page.context().cookies(APP_URL);
    expect(cookie?.name).toBe("staff_session");
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Lax");
    await admin.shell.signOut();
    await admin.login.expectShown();
    await expect(page.getByText(admin.m.login.signedOut)).toBeVisible();
    await page.context().addCookies([{ name: cookie!.name, value: cookie!.value, url: APP_URL }]);
    await page.goto("/admin");
    await admin.login.expectShown();
    // Signing out with no session does nothing but lead to the sign-in.
    await page.context().clearCookies();
    await admin.signIn(STAFF.aurora);
    await page.context().clearCookies();
    await admin.shell.signOut();
    await admin.login.expectShown();
  });

  test("sign-in: a wrong password and an unknown e-mail get the same answer; five failures lock the e-mail from this address", async ({
    page,
    admin,
  }) => {
    const { login, m } = admin;
    await login.goto();
    await login.signIn({ email: STAFF.aurora.email, password: "not-the-password" });
    await expect(login.error).toContainText(m.loginForm.invalid);
    await expect(login.email).toHaveValue(STAFF.aurora.email);
    await expect(login.password).toHaveValue("");

    const unknown = `nobody-${randomUUID().slice(0, 8)}@viajes-aurora.example`;
    for (let attempt = 1; attempt <= 4; attempt++) {
      await login.signIn({ email: unknown, password: `guess-${attempt}` });
      await expect(login.error).toContainText(m.loginForm.invalid);
    }
    await login.signIn({ email: unknown, password: "guess-5" });
    await expect(login.error).toContainText(m.loginForm.locked);
    await login.signIn({ email: unknown, password: "guess-6" });
    await expect(login.error).toContainText(m.loginForm.locked);

    // The known e-mail's one failure was forgotten at its success.
    await login.signIn(STAFF.aurora);
    await expect(admin.health.heading).toBeVisible();
    await expect(page).toHaveURL(`${APP_URL}/admin`);
  });

  test("a sign-in goes back to the page that asked for it, and pages are not stored", async ({ page, admin }) => {
    const response = await page.goto("/admin/operations?status=CONFIRMED");
    expect(response?.headers()["cache-control"]).toContain("no-store");
    await admin.login.signIn(STAFF.aurora);
    await expect(page).toHaveURL(`${APP_URL}/admin/operations?status=CONFIRMED`);
    await expect(admin.operations.status).toHaveValue("CONFIRMED");
    const again = await page.goto("/admin/operations");
    expect(again?.headers()["cache-control"]).toContain("no-store");
  });
});

test.describe("health", () => {
  test("the partner API's status, version, partner code and clock; our database and queues", async ({ admin }) => {
    await admin.signIn(STAFF.aurora);
    const { health, m } = admin;
    await expect(health.heading).toBeVisible();
    await expect(health.value(m.health.apiStatus)).toHaveText("UP");
    await expect(health.value(m.health.version)).toHaveText(/^\d+\.\d+\.\d+$/);
    await expect(health.value(m.health.partnerCode)).toHaveText("AURORA");
    await expect(health.value(m.health.agency)).toHaveText(m.health.agencyKey);
    // The sandbox runs in this process: its clock is ours, within a second or two.
    await expect(health.value(m.health.clockDifference)).toHaveText(/^[+-]?[01]\.\d s$/);
    await expect(health.value(m.health.database)).toHaveText(m.health.databaseOk);
    for (const term of [m.health.eventsWaiting, m.health.sessionsOpen, m.health.notificationsPending]) {
      await expect(health.value(term)).toHaveText(/^\d+$/);
    }
  });
});

test.describe("simulator", () => {
  test("quotes the plans as the customer sees them, with the representative example; bad amounts explained", async ({ admin }) => {
    await admin.signIn(STAFF.aurora);
    const { simulator, m, customer } = admin;
    await admin.shell.section("simulator").click();
    await expect(simulator.heading).toBeVisible();

    await simulator.simulate("1234.50");
    await expect(simulator.page).toHaveURL(/\/admin\/simulator\?amount=1234\.50&country=ESP$/);
    await expect(simulator.resultsHeading).toHaveText(m.simulator.resultsHeading(admin.money(123450), "Spain"));
    for (const installments of [3, 6, 9, 12, 18, 24]) await expect(simulator.offers.group(installments)).toBeVisible();
    const olivo = simulator.offers.plan(12, "Financiera Olivo");
    await expect(olivo).toContainText(customer.offers.tin);
    await expect(olivo).toContainText("9.95%");
    await expect(olivo).toContainText(customer.offers.totalOwed);
    await expect(simulator.offers.representativeExample).toContainText(customer.offers.warning);
    await expect(simulator.offers.representativeExample).toContainText(admin.money(123450));

    await simulator.simulate("800", "Portugal");
    for (const installments of [3, 6, 12]) await expect(simulator.offers.group(installments)).toBeVisible();
    await expect(simulator.offers.group(24)).toHaveCount(0);

    // 0 is refused as the API refuses it (VALIDATION_ERROR); a word is not an amount at all.
    await simulator.simulate("0", "Spain");
    await expect(simulator.page.getByRole("main")).toContainText(m.simulator.validationError);
    await expect(simulator.results).toHaveCount(0);
    await simulator.simulate("twelve");
    await expect(simulator.amount).toHaveAttribute("aria-invalid", "true");
    await expect(simulator.amount).toHaveAccessibleDescription(literally(m.simulator.amountInvalid));
    // Outside the providers' range: no plans, and why.
    await simulator.simulate("20000");
    await expect(simulator.page.getByRole("main")).toContainText(m.simulator.none);
  });
});

test.describe("operations", () => {
  test("filter by status and dates, page through, share the view, find by reference, export the CSV", async ({ page, admin, sandbox }) => {
    // Agency 102 (through the group key) holds only the back-office tests' operations: ours are the newest.
    const created = [];
    for (let i = 0; i < 12; i++)
      created.push(await sandbox.createOperation({ agency: 102, externalId: aBookingReference(`E2E-LIST-${String(i).padStart(2, "0")}`) }));
    // One of them is cancelled meanwhile: the status filter leaves it out.
    const [cancelled] = created.splice(5, 1);
    await sandbox.cancel(cancelled!.id, 102);
    const newestFirst = created.map((op) => op.externalId).reverse();
    const today = await sandbox.today();

    await admin.signIn(STAFF.group);
    await admin.shell.switchAgency("Viajes Brisa", 102);
    const { operations, m } = admin;
    await admin.shell.section("operations").click();
    await expect(operations.heading).toBeVisible();

    await operations.status.selectOption("GENERATED");
    await operations.from.fill(today);
    await operations.to.fill(today);
    await operations.size.selectOption("10");
    await operations.apply.click();
    await expect(page).toHaveURL(new RegExp(`/admin/operations\\?status=GENERATED&from=${today}&to=${today}&size=10$`));
    expect(await operations.references()).toEqual(newestFirst.slice(0, 10));
    await expect(operations.summary).toHaveText(/^Operations 1 to 10 of \d+$/);
    // Not from our checkout: no customer to show, and the list says so.
    await expect(operations.row(newestFirst[0]!)).toContainText(m.operations.notOurs);
    await expect(operations.row(newestFirst[0]!)).toContainText(admin.money(123450));

    await operations.next.click();
    await expect(page).toHaveURL(/[?&]page=2(&|$)/);
    expect((await operations.references())[0]).toBe(newestFirst[10]);
    await expect(operations.pages).toContainText(m.operations.page(2, 2).replace(/ of \d+/, ""));
    await expect(operations.previous).toBeVisible();

    expect(await operations.references()).not.toContain(cancelled!.externalId);

    // The view is its URL: opened afresh, it is the same page of the same filters.
    const shared = page.url();
    const other = await page.context().newPage();
    await other.goto(shared);
    expect((await new Backoffice(other, "en").operations.references())[0]).toBe(newestFirst[10]);
    await other.close();

    // The cancelled one, under its own status.
    await operations.status.selectOption("CANCELLED");
    await operations.apply.click();
    await expect(operations.row(cancelled!.externalId)).toContainText("CANCELLED");
    expect(await operations.references()).not.toContain(newestFirst[0]);

    // Nothing was created before today.
    const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    await operations.goto(`?status=GENERATED&to=${yesterday}`);
    await expect(operations.summary).toHaveText(m.operations.noResults);
    // A bad view in the URL is named, not a crash.
    await operations.goto("?page=abc&size=500&status=DONE");
    const problems = page.getByRole("main").getByText(m.operations.problemsTitle).locator("..");
    for (const text of [m.operations.problems.page, m.operations.problems.size, m.operations.problems.status])
      await expect(problems).toContainText(text);

    // The CSV of the filtered list: every page, quoted.
    await operations.goto(`?status=GENERATED&from=${today}&to=${today}&size=10`);
    const [download] = await Promise.all([page.waitForEvent("download"), operations.exportLink.click()]);
    expect(download.suggestedFilename()).toMatch(/^operations-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path())!, "utf8");
    const lines = csv
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toBe(
      '"operationId","operationNumber","bookingReference","status","totalPrice","totalReserve","currency","updatedAt","customerName","packageName","checkoutSessionId"',
    );
    for (const op of created)
      expect(
        lines.some((line) => line.startsWith(`"${op.id}",`) && line.includes(`"${op.externalId}","GENERATED","1234.50","1253.02","EUR"`)),
      ).toBe(true);
    expect(csv).not.toContain(cancelled!.externalId);

    // Found by booking reference; an unknown one is said so.
    await operations.findByReference(newestFirst[4]!);
    await admin.operation.expectOperation(newestFirst[4]!);
    await admin.operation.expectStatus("GENERATED");
    await operations.goto();
    await operations.findByReference("NO-SUCH-BOOKING");
    await expect(page.getByRole("main")).toContainText(m.operations.notFound("NO-SUCH-BOOKING"));
  });

  test("an operation from our checkout: customer and trip, amounts, plans, our history, its webhooks and notifications", async ({
    page,
    admin,
    checkout,
    checkoutSessions,
  }) => {
    // The partner's backend opens a session and the customer sends their details: POST /operations.
    const booking = aBookingReference("E2E-CHECKOUT");
    const session = await checkout.detailsSent(checkoutSessions, { reference: booking, locale: "en" });

    await admin.signIn(STAFF.aurora);
    const { operations, operation, m } = admin;
    // The newest hundred: other tests (or runs) may be creating operations in this agency too.
    await operations.goto("?size=100");
    await expect(operations.row(booking)).toContainText(fullName(aCustomer()));
    await expect(operations.row(booking)).toContainText(TEST_BOOKING.packageName);
    await operations.row(booking).getByRole("link", { name: booking }).click();
    await operation.expectOperation(booking);
    await operation.expectStatus("GENERATED");
    await expect(operation.statusCard).toContainText(m.operation.readNow);
    await expect(operation.booking).toContainText(fullName(aCustomer()));
    // The session by its first characters only: the whole id opens the customer's checkout.
    await expect(operation.booking).toContainText(sessionIdHint(session.id));
    await expect(operation.booking).not.toContainText(session.id);
    const price = cents(TEST_BOOKING.totalPrice);
    await expect(operation.amounts).toContainText(admin.money(price));
    // The reserve adds the 1.5 % management fee: 1,234.50 + 18.52.
    await expect(operation.amounts).toContainText(admin.money(price + 1852));
    await expect(operation.offers.getByRole("row")).not.toHaveCount(0);
    await expect(operation.offers).toContainText("Financiera Olivo");
    // Banca Nube's 6 months carry an opening fee in the first installment: shown beside the regular one.
    await expect(operation.offers).toContainText(m.operation.differingInstallment(true, admin.money(23661)));
    await expect(operation.history.getByRole("row").nth(1)).toContainText("GENERATED");
    await expect(operation.history).toContainText(m.operation.sources.action!);

    // Read again: the conditional status call answers 304.
    await page.reload();
    await expect(operation.statusCard).toContainText(m.operation.notModified);

    // Cancelled here, the partner API's CANCELLED webhook comes back, is applied and acknowledged,
    // and the partner is notified.
    await operation.cancel("Customer booked another trip");
    await operation.expectStatus("CANCELLED");
    await expect
      .poll(
        async () => {
          await page.reload();
          return (await operation.webhooks.count()) > 0 ? await operation.webhooks.innerText() : "";
        },
        { timeout: 30_000 },
      )
      .toContain(m.operation.webhookStates.acknowledged);
    await expect(operation.webhooks).toContainText("CANCELLED");
    await expect(operation.history).toContainText("CANCELLED");
    await expect(operation.history).toContainText(m.operation.sources.webhook!);
    const cancelledNotice = operation.notifications.getByRole("row").filter({ has: page.getByText("cancelled", { exact: true }) });
    await expect
      .poll(
        async () => {
          await page.reload();
          const text = (await cancelledNotice.count()) === 1 ? await cancelledNotice.innerText() : "";
          // While the send is in flight the row already counts its attempt: "1 Pending".
          return text.includes(m.operation.notificationPending) ? "" : text;
        },
        { timeout: 30_000 },
      )
      // Sent once, and delivered (the last cell is the time it arrived).
      .toMatch(/^cancelled\s+\S.*\s+1\s+\S/);
  });
});

test.describe("an operation from our checkout, end to end", () => {
  test("signed by the customer (POST /financing), refunded here: each webhook applied and acknowledged", async ({
    page,
    admin,
    checkout,
    checkoutSessions,
  }) => {
    const booking = aBookingReference("E2E-SIGNED");
    await checkout.detailsSent(checkoutSessions, { reference: booking, locale: "en" });
    await checkout.offers.choose(12, "Financiera Olivo");
    await checkout.provider.sign();
    await expect(page).toHaveURL(/\/checkout\/cs_[\w-]+\/status$/);

    await admin.signIn(STAFF.aurora);
    await admin.openByReference(booking);
    const { operation, refund, m } = admin;
    await operation.expectStatus("CONFIRMED");
    const acknowledged = (status: string) =>
      expect
        .poll(
          async () => {
            await page.reload();
            const row = operation.webhooks.getByRole("row").filter({ hasText: status });
            return (await row.count()) > 0 ? await row.first().innerText() : "";
          },
          { timeout: 30_000 },
        )
        .toContain(m.operation.webhookStates.acknowledged);
    await acknowledged("CONFIRMED");

    await operation.refundLink.click();
    await refund.review.click();
    await refund.confirm.click();
    await expect(refund.stepHeading).toHaveText(m.refundForm.doneTitle);
    await refund.backToOperation.click();
    await operation.expectStatus("REFUNDED");
    await acknowledged("REFUNDED");
    await expect(operation.history).toContainText("REFUNDED");
  });
});

test.describe("cancel", () => {
  test("a GENERATED operation, with a reason counted as it is typed and checked on the server", async ({ page, admin, sandbox }) => {
    const op = await sandbox.createOperation();
    await admin.signIn(STAFF.aurora);
    await admin.openByReference(op.externalId);
    const { operation, m } = admin;
    await operation.expectStatus("GENERATED");

    await operation.reason.fill("Customer changed plans");
    await expect(page.getByText("22 / 255", { exact: true })).toBeVisible();
    await expect(operation.reason).toHaveAccessibleDescription(/22 of 255 characters/);
    await operation.reason.fill("x".repeat(256));
    await expect(page.getByText("1 characters too many")).toBeVisible();
    await operation.cancelButton.click();
    await expect(operation.reason).toHaveAccessibleDescription(literally(m.cancelForm.reasonTooLong));
    expect(await sandbox.status(op.id)).toBe("GENERATED");

    await operation.cancel("Customer changed plans");
    await expect(page.getByRole("status").filter({ hasText: m.operation.cancelled })).toBeVisible();
    await operation.expectStatus("CANCELLED");
    await expect(operation.cancelButton).toHaveCount(0);
    expect(await sandbox.status(op.id)).toBe("CANCELLED");
    expect(await sandbox.history(op.id)).toContainEqual(
      expect.objectContaining({ status: "CANCELLED", note: "cancelled: Customer changed plans" }),
    );
  });

  test("a CLIENT_REQUESTED operation is not offered for cancelling, and a late try is refused and explained", async ({
    page,
    admin,
    sandbox,
  }) => {
    const op = await sandbox.createOperation();
    await admin.signIn(STAFF.aurora);
    await admin.openByReference(op.externalId);
    const { operation, m } = admin;
    await expect(operation.cancelButton).toBeVisible();

    // Meanwhile the customer picks a plan at the provider.
    await sandbox.requestFinancing(op.id);
    await operation.cancel("Too late");
    const refusal = page.getByRole("alert").filter({ hasText: m.operation.notCancellableTitle });
    await expect(refusal).toContainText(m.operation.notCancellable(`${m.common.statuses.CLIENT_REQUESTED} (CLIENT_REQUESTED)`));
    await operation.expectStatus("CLIENT_REQUESTED");
    await expect(operation.cancelButton).toHaveCount(0);
    expect(await sandbox.status(op.id)).toBe("CLIENT_REQUESTED");

    await admin.openByReference(op.externalId);
    await expect(operation.cancelSection).toHaveCount(0);
    await expect(operation.refundLink).toHaveCount(0);
  });
});

test.describe("refund", () => {
  test("a CONFIRMED operation with charges: totals match the sandbox to the cent, then REFUNDED", async ({ page, admin, sandbox }) => {
    const op = await confirmedOperationOpened(admin, sandbox);
    const details = await sandbox.refundDetails(op.id);
    const { operation, refund, m } = admin;
    const f = m.refundForm;
    await operation.expectStatus("CONFIRMED");
    await expect(operation.cancelButton).toHaveCount(0);
    await operation.refundLink.click();
    await expect(refund.heading).toHaveText(m.refund.title(op.externalId));

    // The API's breakdown, to the cent.
    await expect(refund.amount(f.totalReserve)).toHaveText(admin.money(cents(details.totalReserve.amount)));
    await expect(refund.amount(f.managementFees)).toHaveText(admin.money(-cents(details.managementFees.amount)));
    await expect(refund.amount(/^The service's cancellation fee \(2%\)$/)).toHaveText(
      admin.money(-cents(details.fliinowCancellationFee.amount)),
    );
    await expect(refund.amount(f.apiTotal)).toHaveText(admin.money(cents(details.totalToRefund.amount)));

    // The charges, and the total recomputed as they are typed.
    const expected = cents(details.totalToRefund.amount) - 2550 - 1005;
    await refund.agencyFee.fill("25.50");
    await refund.providerFee.fill("10,05");
    await expect(refund.liveTotal).toHaveText(f.liveTotal.replace("{total}", admin.money(expected)));
    await refund.reason.fill("Trip cancelled by the hotel");
    await refund.review.click();

    // The server's own computation, before anything is sent.
    await expect(refund.stepHeading).toHaveText(f.confirmHeading);
    await expect(refund.amount(f.agencyFee)).toHaveText(admin.money(-2550));
    await expect(refund.amount(f.providerFee)).toHaveText(admin.money(-1005));
    await expect(refund.amount(f.total)).toHaveText(admin.money(expected));
    await expect(page.getByRole("main")).toContainText("Trip cancelled by the hotel");
    expect(await sandbox.status(op.id)).toBe("CONFIRMED");
    await refund.confirm.click();

    await expect(refund.stepHeading).toHaveText(f.doneTitle);
    await expect(page.getByRole("main")).toContainText(
      f.doneBody.replace("{total}", admin.money(expected)).replace("{status}", `${m.common.statuses.REFUNDED} (REFUNDED)`),
    );
    expect(await sandbox.status(op.id)).toBe("REFUNDED");
    expect(await sandbox.history(op.id)).toContainEqual(
      expect.objectContaining({ status: "REFUNDED", note: "refunded: Trip cancelled by the hotel" }),
    );

    await refund.backToOperation.click();
    await operation.expectStatus("REFUNDED");
    await expect(operation.refundLink).toHaveCount(0);
  });

  test("charges above the total are refused before anything is sent", async ({ admin, sandbox }) => {
    const op = await confirmedOperationOpened(admin, sandbox);
    await admin.operation.refundLink.click();
    const { refund, m } = admin;
    await refund.agencyFee.fill("5000");
    await expect(refund.liveTotal.locator("..")).toContainText(m.refundForm.exceeds);
    await refund.providerFee.fill("abc");
    await refund.review.click();
    await expect(refund.providerFee).toHaveAttribute("aria-invalid", "true");
    await expect(refund.providerFee).toHaveAccessibleDescription(literally(m.refundForm.amountInvalid));
    await refund.providerFee.fill("");
    await refund.review.click();
    await expect(refund.agencyFee).toHaveAccessibleDescription(literally(m.refundForm.exceeds));
    await expect(refund.confirm).toHaveCount(0);
    expect(await sandbox.status(op.id)).toBe("CONFIRMED");
  });

  test("a form the server's checks refuse comes back as typed, each field's problem said on it", async ({ admin, sandbox }) => {
    const op = await confirmedOperationOpened(admin, sandbox);
    await admin.operation.refundLink.click();
    const { refund, m } = admin;
    // A charge longer than any amount, and a reason with a control character: refused by the
    // action's schema, before any arithmetic.
    await refund.agencyFee.fill("1".repeat(60));
    await refund.reason.fill("Cancelled by the hotel \u0001");
    await refund.review.click();
    await expect(refund.agencyFee).toHaveAttribute("aria-invalid", "true");
    await expect(refund.agencyFee).toHaveAccessibleDescription(literally(m.refundForm.amountInvalid));
    await expect(refund.reason).toHaveAccessibleDescription(literally(m.refundForm.reasonCharacters));
    await expect(refund.agencyFee).toHaveValue("1".repeat(60));
    await expect(refund.reason).toHaveValue("Cancelled by the hotel \u0001");
    await expect(refund.confirm).toHaveCount(0);
    expect(await sandbox.status(op.id)).toBe("CONFIRMED");
  });

  test("a refund the provider rejects (+refund_reject) changes nothing, and says so", async ({ page, admin, sandbox }) => {
    const op = await confirmedOperationOpened(admin, sandbox, { email: "ana+refund_reject@example.com" });
    await admin.operation.refundLink.click();
    const { refund, m } = admin;
    await refund.agencyFee.fill("12");
    await refund.review.click();
    await refund.confirm.click();

    await expect(refund.stepHeading).toHaveText(m.refundForm.rejectedTitle);
    await expect(page.getByRole("main")).toContainText(
      m.refundForm.rejectedBody.replace("{status}", `${m.common.statuses.CONFIRMED} (CONFIRMED)`),
    );
    expect(await sandbox.status(op.id)).toBe("CONFIRMED");
    expect((await sandbox.history(op.id)).map((entry) => entry.status)).not.toContain("REFUNDED");

    await refund.backToOperation.click();
    await admin.operation.expectStatus("CONFIRMED");
    await expect(admin.operation.refundLink).toBeVisible();
  });
});

test.describe("management group key", () => {
  test("the agency switcher: every call carries the chosen agency; the simulator without providers", async ({ page, admin, sandbox }) => {
    const in101 = await sandbox.createOperation({ agency: 101 });
    const in102 = await sandbox.createOperation({ agency: 102 });
    await admin.signIn(STAFF.group);
    const { shell, health, simulator, operations, m } = admin;

    // GET /agencies: the group's active agencies only (103 is inactive).
    await expect(shell.agency.getByRole("option")).toHaveText([
      m.common.agencyOption("Viajes Aurora", 101),
      m.common.agencyOption("Viajes Brisa", 102),
    ]);
    await expect(health.value(m.health.partnerCode)).toHaveText("GRUPO1");
    // Grupo Demo's own agency first (101 is reached by its key, but is Viajes Aurora's).
    await expect(health.value(m.health.agency)).toHaveText(m.common.agencyOption("Viajes Brisa", 102));

    await operations.goto();
    await expect(operations.row(in102.externalId)).toBeVisible();
    await expect(operations.row(in101.externalId)).toHaveCount(0);
    await operations.findByReference(in101.externalId);
    await expect(page.getByRole("main")).toContainText(m.operations.notFound(in101.externalId));

    // Agency 102 has no providers: its operations are eligible for no plan.
    await admin.openByReference(in102.externalId);
    await expect(admin.operation.offers).toHaveCount(0);
    await expect(page.getByRole("main")).toContainText(m.operation.offersNotEligible);

    await simulator.goto();
    await simulator.simulate("1234.50");
    const notice = page.getByRole("main").getByText(m.simulator.noCompaniesTitle).locator("..");
    await expect(notice).toContainText(m.simulator.noCompanies(m.common.agencyOption("Viajes Brisa", 102)));
    await expect(simulator.results).toHaveCount(0);

    // Quoting carries the chosen agency too; its operations stay Viajes Aurora's (e2e/ownership.spec.ts).
    await shell.switchAgency("Viajes Aurora", 101);
    await expect(page).toHaveURL(/\/admin\/simulator\?amount=1234\.50&country=ESP$/);
    await expect(simulator.offers.group(12)).toBeVisible();
    await shell.switchAgency("Viajes Brisa", 102);
    await expect(page).toHaveURL(/\/admin\/simulator\?amount=1234\.50&country=ESP$/);
    await expect(notice).toContainText(m.simulator.noCompanies(m.common.agencyOption("Viajes Brisa", 102)));
  });

  test("an agency key shows no switcher", async ({ admin }) => {
    await admin.signIn(STAFF.aurora);
    await expect(admin.shell.banner).toContainText(STAFF.aurora.name);
    await expect(admin.shell.agency).toHaveCount(0);
    await expect(admin.shell.switchAgencyButton).toHaveCount(0);
  });
});

test.describe("languages", () => {
  test.use({ locale: "es-ES" });

  test("Spanish for a Spanish browser, English after the switch", async ({ page, admin }) => {
    await admin.signIn(STAFF.aurora);
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(admin.health.heading).toHaveText("Estado de la integración");
    await page.getByRole("button", { name: "Cambiar idioma: English" }).click();
    const en = new Backoffice(page, "en");
    await expect(en.health.heading).toHaveText("Integration health");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await en.shell.section("operations").click();
    await expect(en.operations.heading).toBeVisible();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("sign in, find an operation and cancel it; a wrong reason length is refused on the server", async ({ page, admin, sandbox }) => {
    const op = await sandbox.createOperation();
    await admin.login.goto();
    await admin.login.signIn({ email: STAFF.aurora.email, password: "wrong" });
    await expect(page.getByText(admin.m.loginForm.invalid)).toBeVisible();
    await admin.login.signIn(STAFF.aurora);
    await expect(admin.health.heading).toBeVisible();

    await admin.openByReference(op.externalId);
    // No live count without a script: the hint states the limit, the server checks it.
    await expect(page.getByText("0 / 255")).toHaveCount(0);
    await admin.operation.cancel("y".repeat(300));
    await expect(admin.operation.reason).toHaveAccessibleDescription(literally(admin.m.cancelForm.reasonTooLong));
    expect(await sandbox.status(op.id)).toBe("GENERATED");
    await admin.operation.cancel("Customer asked by phone");
    await admin.operation.expectStatus("CANCELLED");
    expect(await sandbox.status(op.id)).toBe("CANCELLED");
  });

  test("refund in its steps", async ({ page, admin, sandbox }) => {
    const op = await confirmedOperationOpened(admin, sandbox);
    const details = await sandbox.refundDetails(op.id);
    await admin.operation.refundLink.click();
    await admin.refund.agencyFee.fill("1");
    await admin.refund.review.click();
    await expect(admin.refund.amount(admin.m.refundForm.total)).toHaveText(admin.money(cents(details.totalToRefund.amount) - 100));
    await admin.refund.confirm.click();
    await expect(admin.refund.stepHeading).toHaveText(admin.m.refundForm.doneTitle);
    expect(await sandbox.status(op.id)).toBe("REFUNDED");
    await expect(page.getByRole("main")).toContainText("(REFUNDED)");
  });
});

test.describe("accessibility", () => {
  test("every back-office page, with its errors and steps, has no axe violations", async ({ page, admin, sandbox }) => {
    // Some twenty pages and states, each analysed by axe.
    test.setTimeout(120_000);
    const generated = await sandbox.createOperation();
    const confirmed = await sandbox.createOperation();
    await sandbox.confirm(confirmed.id);
    const rejected = await sandbox.createOperation({ email: "ana+refund_reject@example.com" });
    await sandbox.confirm(rejected.id);

    await admin.login.goto();
    await expectNoAxeViolations(page, "the sign-in");
    await admin.login.signIn({ email: "nobody@example.com", password: "x" });
    await expect(admin.login.error).toBeVisible();
    await expectNoAxeViolations(page, "the sign-in with an error");

    await admin.signIn(STAFF.group);
    await expectNoAxeViolations(page, "the health page, with the agency switcher");
    // Grupo Demo's own agency (102) has no providers: the plans are quoted on 101.
    await admin.shell.switchAgency("Viajes Aurora", 101);
    await admin.simulator.goto();
    await admin.simulator.simulate("1234.50");
    await expect(admin.simulator.offers.representativeExample).toBeVisible();
    await expectNoAxeViolations(page, "the simulator's plans");
    await admin.simulator.simulate("abc");
    await expectNoAxeViolations(page, "the simulator with a bad amount");
    await admin.shell.signOut();

    await admin.signIn(STAFF.aurora);
    for (const [query, what] of [
      ["", "the operations"],
      ["?page=0&size=500", "the operations with bad filters"],
      [`?ref=NO-SUCH-${randomUUID().slice(0, 6)}`, "the operations with a reference not found"],
    ] as const) {
      await admin.operations.goto(query);
      await expect(admin.operations.heading).toBeVisible();
      await expectNoAxeViolations(page, what);
    }

    await admin.openByReference(generated.externalId);
    await admin.operation.reason.fill("x".repeat(300));
    await admin.operation.cancelButton.click();
    await expect(admin.operation.reason).toHaveAttribute("aria-invalid", "true");
    await expectNoAxeViolations(page, "an operation with its cancel form showing an error");

    await admin.openByReference(confirmed.externalId);
    await expectNoAxeViolations(page, "a confirmed operation");
    await admin.operation.refundLink.click();
    await expectNoAxeViolations(page, "the refund's charges");
    await admin.refund.agencyFee.fill("oops");
    await admin.refund.review.click();
    await expect(admin.refund.agencyFee).toHaveAttribute("aria-invalid", "true");
    await expectNoAxeViolations(page, "the refund's charges with an error");
    await admin.refund.agencyFee.fill("20");
    await admin.refund.review.click();
    await expect(admin.refund.confirm).toBeVisible();
    await expectNoAxeViolations(page, "the refund's confirmation");
    await admin.refund.confirm.click();
    await expect(admin.refund.stepHeading).toHaveText(admin.m.refundForm.doneTitle);
    await expectNoAxeViolations(page, "the refund done");

    await admin.openByReference(rejected.externalId);
    await admin.operation.refundLink.click();
    await admin.refund.review.click();
    await admin.refund.confirm.click();
    await expect(admin.refund.stepHeading).toHaveText(admin.m.refundForm.rejectedTitle);
    await expectNoAxeViolations(page, "the refund rejected");

    await page.goto(`/admin/operations/${generated.id}/refund`);
    await expectNoAxeViolations(page, "the refund of an operation that cannot be refunded");
    await page.goto("/admin/operations/op_doesnotexist");
    await expectNoAxeViolations(page, "an unknown operation");
  });

  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 900 },
  ]) {
    test(`the operations list and the refund at ${viewport.width} px: no violations, nothing wider than the screen`, async ({
      page,
      admin,
      sandbox,
    }, testInfo) => {
      await page.setViewportSize(viewport);
      const confirmed = await sandbox.createOperation();
      await sandbox.confirm(confirmed.id);
      await admin.signIn(STAFF.aurora);
      const overflow = () => horizontalOverflow(page);
      const shot = async (name: string) =>
        testInfo.attach(`${name}-${viewport.width}`, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });

      await admin.operations.goto();
      if (viewport.width < 640) {
        await expect(admin.operations.cards.getByRole("listitem").filter({ hasText: confirmed.externalId })).toContainText(
          admin.m.common.statuses.CONFIRMED,
        );
        await expect(admin.operations.table).toBeHidden();
      } else {
        await expect(admin.operations.table).toBeVisible();
        await expect(admin.operations.cards).toBeHidden();
      }
      await expectNoAxeViolations(page, `the operations at ${viewport.width} px`);
      expect(await overflow()).toBe(0);
      await shot("operations");

      await admin.openByReference(confirmed.externalId);
      expect(await overflow()).toBe(0);
      await shot("operation");
      await admin.operation.refundLink.click();
      await admin.refund.agencyFee.fill("25.50");
      await admin.refund.reason.fill("Trip cancelled by the hotel");
      await expectNoAxeViolations(page, `the refund at ${viewport.width} px`);
      expect(await overflow()).toBe(0);
      await shot("refund");
      await admin.refund.review.click();
      await expect(admin.refund.confirm).toBeVisible();
      await expectNoAxeViolations(page, `the refund's confirmation at ${viewport.width} px`);
      expect(await overflow()).toBe(0);
      await shot("refund-confirm");
    });
  }
});
