import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createSandbox, type Sandbox } from "./app";
import { openSandboxDatabase, type SandboxDatabase } from "./db/connection";
import { sandboxOperations } from "./db/schema";
import { businessError } from "./errors";

/**
 * The hosted pages, driven the way a browser does: GET the page, POST its form as
 * application/x-www-form-urlencoded, follow the 303s by hand, and check the operation's status
 * through the partner API.
 */

const ORIGIN = "http://sandbox.test";
const KEY = "fk_test_sandbox_agency_101";
const SUCCESS_URL = "https://shop.example/return/success?ref=abc";
const ERROR_URL = "https://shop.example/return/error";

interface Webhook {
  url: string;
  body: unknown;
}

let sandbox: Sandbox;
let database: SandboxDatabase;
let webhooks: Webhook[];
let sequence = 0;

// One database for the file (booting PGlite is slow); each test gets a sandbox of its own on it.
beforeAll(async () => {
  database = await openSandboxDatabase({ dataDir: "memory://" });
});
afterAll(async () => {
  await database?.close();
});

beforeEach(() => {
  webhooks = [];
  const fetchDouble = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    webhooks.push({ url, body: typeof init.body === "string" ? JSON.parse(init.body) : init.body });
    return new Response(null, { status: 200 });
  };
  sandbox = createSandbox({
    tickMs: 0,
    fetch: fetchDouble as typeof fetch,
    // shop.example stands for a partner on the internet.
    lookup: async () => [{ address: "203.0.113.10", family: 4 }],
    database: { ...database, close: async () => {} },
  });
});

afterEach(async () => {
  vi.restoreAllMocks();
  await sandbox.close();
});

// ---------------------------------------------------------------------------------------------
// Helpers

interface CreateOptions {
  email?: string;
  packageName?: string;
  firstName?: string;
  redirects?: boolean;
  totalPrice?: number;
  successRedirectUrl?: string;
}

async function createOperation(options: CreateOptions = {}) {
  sequence += 1;
  const body = {
    externalId: `booking-${sequence}`,
    packageName: options.packageName ?? "Lisbon city break",
    packageTravel: true,
    travelersNumber: 2,
    totalPrice: options.totalPrice ?? 1234.5,
    ...(options.redirects === false ? {} : { successRedirectUrl: options.successRedirectUrl ?? SUCCESS_URL, errorRedirectUrl: ERROR_URL }),
    webhookUrl: "https://shop.example/webhooks/financing",
    client: {
      firstName: options.firstName ?? "Ana",
      lastName: "García",
      email: options.email ?? "ana@example.com",
      prefix: "+34",
      phone: "600123456",
      documentId: "12345678Z",
      documentValidityDate: "01-01-2030",
      gender: "FEMALE",
      birthDate: "15-05-1990",
      nationality: "ESP",
      address: "Calle Mayor 1",
      city: "Madrid",
      postalCode: "28013",
      countryCode: "ESP",
    },
    flights: [{ origin: "MAD", destination: "LIS", departureDate: "10-10-2030", returnDate: "14-10-2030" }],
  };
  const response = await sandbox.fetch(
    new Request(`${ORIGIN}/sandbox/v1/operations`, {
      method: "POST",
      headers: { "X-Service-API-Key": KEY, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
  expect(response.status).toBe(201);
  const created = (await response.json()) as { id: string; externalId: string; financingUrl: string };
  return created;
}

async function status(id: string): Promise<string> {
  const response = await sandbox.fetch(
    new Request(`${ORIGIN}/sandbox/v1/operations/${id}/status`, { headers: { "X-Service-API-Key": KEY } }),
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { status: string }).status;
}

// A browser set to English, unless a test says otherwise: without Accept-Language the pages are Spanish.
function get(url: string, acceptLanguage = "en-GB,en;q=0.9"): Promise<Response> {
  return sandbox.fetch(new Request(url, { headers: acceptLanguage === "" ? {} : { "Accept-Language": acceptLanguage } }));
}

function postForm(url: string, fields: Record<string, string> = {}): Promise<Response> {
  return sandbox.fetch(
    new Request(url, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Accept-Language": "en-GB,en;q=0.9" },
      body: new URLSearchParams(fields).toString(),
    }),
  );
}

/** The offer ids on a financing page, in order, with their radio labels. */
function offersOn(page: string): { id: number; label: string }[] {
  return [...page.matchAll(/<input type="radio" name="offerId" id="offer-(\d+)"[^>]*>\s*<span>([^<]*)<\/span>/g)].map((m) => ({
    id: Number(m[1]),
    label: m[2] ?? "",
  }));
}

function offerWith(page: string, installments: number) {
  const offer = offersOn(page).find((o) => o.label.includes(` ${installments} monthly installments `));
  if (!offer) throw new Error(`no ${installments}-installment offer on the page`);
  return offer;
}

/** Opens the financing page, picks the 12-installment plan, and returns the checkout URL. */
async function chooseTwelveMonths(financingUrl: string): Promise<string> {
  const page = await (await get(financingUrl)).text();
  const response = await postForm(financingUrl, { offerId: String(offerWith(page, 12).id) });
  expect(response.status).toBe(303);
  return response.headers.get("Location") ?? "";
}

function h1(page: string): string {
  return /<h1>([\s\S]*?)<\/h1>/.exec(page)?.[1] ?? "";
}

// ---------------------------------------------------------------------------------------------

describe("the financing page", () => {
  it("opens: the operation becomes PENDING and the plans are listed as a labelled radio group", async () => {
    const op = await createOperation();
    expect(await status(op.id)).toBe("GENERATED");

    const response = await get(op.financingUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(response.headers.get("Referrer-Policy")).toBe("no-referrer");
    expect(await status(op.id)).toBe("PENDING");

    const page = await response.text();
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(page).toMatch(/<title>[^<]+<\/title>/);
    expect(page.match(/<h1>/g)).toHaveLength(1);
    expect(page).toContain('<span class="badge">Sandbox</span>');
    expect(page).toContain("Lisbon city break");
    expect(page).toContain("1.234,50\u00a0€");
    expect(page).toContain('<form method="post">');
    expect(page).toContain("<legend>Installment plans</legend>");
    expect(page).toContain("Continue to the provider");
    // No external assets and no script; the icon is inline, so the browser asks for no /favicon.ico.
    expect(page).not.toMatch(/<script|src=/i);
    expect([...page.matchAll(/<link [^>]*>/g)].map((m) => m[0])).toEqual([
      expect.stringMatching(/^<link rel="icon" href="data:image\/svg\+xml,/),
    ]);
    expect(response.headers.get("Content-Language")).toBe("en");

    const offers = offersOn(page);
    expect(offers.length).toBeGreaterThan(5);
    for (const offer of offers) expect(page).toContain(`<label class="offer-choice" for="offer-${offer.id}">`);
    // Banca Nube's 3 months: 0 % TIN, an opening fee in the first installment, which differs.
    // Its label says so too.
    expect(page).toMatch(/Banca Nube: 3 monthly installments of 411,50\u00a0€ \(first installment 442,36\u00a0€\)/);
    expect(page).toContain("First installment (differs)");
    expect(page).toContain("Opening fee");
    expect(page).toContain("0,00\u00a0%");
    expect(page).toContain("Total owed");
  });

  it("answers 404 with an HTML page for a wrong or missing token", async () => {
    const op = await createOperation();
    const wrong = new URL(op.financingUrl);
    wrong.searchParams.set("token", "0".repeat(32));

    for (const url of [wrong.toString(), `${ORIGIN}/sandbox/pay/financing?operation=${op.id}`, `${ORIGIN}/sandbox/pay/financing`]) {
      const response = await get(url);
      expect(response.status).toBe(404);
      expect(response.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
      expect(h1(await response.text())).toBe("This link is not valid");
    }
    expect(await status(op.id)).toBe("GENERATED");
    expect((await postForm(wrong.toString(), { offerId: "1011112" })).status).toBe(404);
  });

  it("escapes the partner's and the customer's text", async () => {
    const op = await createOperation({ packageName: "<script>alert(1)</script>", firstName: '"><img src=x onerror=alert(2)>' });
    const page = await (await get(op.financingUrl)).text();
    expect(page).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(page).not.toContain("<script>alert(1)");
    expect(page).not.toContain("<img src=x");

    const checkout = await (await get(await chooseTwelveMonths(op.financingUrl))).text();
    expect(checkout).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(checkout).not.toContain("<img src=x");
  });

  it("explains that financing is not available (+not_eligible), with the way back to the shop", async () => {
    const op = await createOperation({ email: "ana+not_eligible@example.com" });
    const response = await get(op.financingUrl);
    expect(response.status).toBe(422);
    const page = await response.text();
    expect(h1(page)).toBe("Financing not available");
    expect(page).not.toContain("<form");
    expect(page).toContain(`href="${ERROR_URL}?operationId=${op.id}&amp;externalId=${op.externalId}&amp;status=PENDING"`);
  });

  it("links to the default result page when financing is not available and no URL was given", async () => {
    const op = await createOperation({ email: "ana+not_eligible@example.com", redirects: false });
    const page = await (await get(op.financingUrl)).text();
    const href = /<a class="button button-primary" href="([^"]+)">/.exec(page)?.[1]?.replaceAll("&amp;", "&") ?? "";
    expect(href).toMatch(`${ORIGIN}/sandbox/pay/result?`);
    const result = await (await get(href)).text();
    expect(h1(result)).toBe("Financing not available");
  });

  it("says so when no plan fits the amount", async () => {
    const op = await createOperation({ totalPrice: 10 });
    const response = await get(op.financingUrl);
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(h1(page)).toBe("Financing not available");
    expect(page).toContain("No provider offers a plan for this amount.");
  });

  it("redirects (303) to the provider checkout when a plan is chosen: CLIENT_REQUESTED", async () => {
    const op = await createOperation();
    const location = await chooseTwelveMonths(op.financingUrl);
    expect(location).toMatch(new RegExp(`^${ORIGIN}/sandbox/provider/checkout/[0-9a-f]{32}$`));
    expect(await status(op.id)).toBe("CLIENT_REQUESTED");

    // A second click on "Continue" follows the first instead of failing.
    const again = await postForm(op.financingUrl, { offerId: "1011112" });
    expect(again.status).toBe(303);
    expect(again.headers.get("Location")).toBe(location);

    // Opened again later: where it stands, and the way on to the provider.
    const page = await (await get(op.financingUrl)).text();
    expect(h1(page)).toBe("Plan chosen: signature pending");
    expect(page).not.toContain("<form");
    expect(page).toContain(`href="${location}"`);
  });

  it("answers 400 with the plans again when no valid offerId is posted", async () => {
    const op = await createOperation();
    await get(op.financingUrl);
    const attempts: Record<string, string>[] = [
      {},
      { offerId: "" },
      { offerId: "abc" },
      { offerId: "-3" },
      { offerId: "1.5" },
      { offerId: "0" },
    ];
    for (const fields of attempts) {
      const response = await postForm(op.financingUrl, fields);
      expect(response.status).toBe(400);
      const page = await response.text();
      expect(page).toContain('role="alert"');
      expect(page).toContain("Choose one of the plans to continue.");
      expect(offersOn(page).length).toBeGreaterThan(0);
    }
    expect(await status(op.id)).toBe("PENDING");
  });

  it("answers 422 as a page for an offer that is not on offer", async () => {
    const op = await createOperation();
    const response = await postForm(op.financingUrl, { offerId: "9999999" });
    expect(response.status).toBe(422);
    expect(response.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(await response.text()).toContain("That plan is not available.");
    expect(await status(op.id)).toBe("GENERATED");
  });

  it("shows the plans again without the refused installment count (+refuse_offer)", async () => {
    const op = await createOperation({ email: "ana+refuse_offer@example.com" });
    const first = await (await get(op.financingUrl)).text();
    expect(offersOn(first).some((o) => o.label.includes(" 12 monthly installments "))).toBe(true);

    const response = await postForm(op.financingUrl, { offerId: String(offerWith(first, 12).id) });
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toMatch(/<div class="alert" role="alert">The provider could not approve 12 installments; choose another plan.<\/div>/);
    const offers = offersOn(page);
    expect(offers.length).toBeGreaterThan(0);
    expect(offers.some((o) => o.label.includes(" 12 monthly installments "))).toBe(false);
    expect(await status(op.id)).toBe("PENDING");
  });

  it("sends the customer to the error URL when every provider refuses (+refuse_all)", async () => {
    const op = await createOperation({ email: "ana+refuse_all@example.com" });
    const page = await (await get(op.financingUrl)).text();
    const response = await postForm(op.financingUrl, { offerId: String(offerWith(page, 12).id) });
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe(`${ERROR_URL}?operationId=${op.id}&externalId=${op.externalId}&status=REFUSED`);
    expect(await status(op.id)).toBe("REFUSED");
  });

  it("shows a finished operation's state instead of the form", async () => {
    const op = await createOperation();
    const cancel = await sandbox.fetch(
      new Request(`${ORIGIN}/sandbox/v1/operations/${op.id}/cancel`, { method: "POST", headers: { "X-Service-API-Key": KEY } }),
    );
    expect(cancel.status).toBe(200);

    const response = await get(op.financingUrl);
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(h1(page)).toBe("Financing cancelled");
    expect(page).toContain('<span class="status">CANCELLED</span>');
    expect(page).not.toContain("<form");

    const post = await postForm(op.financingUrl, { offerId: "1011112" });
    expect(post.status).toBe(409);
    expect(h1(await post.text())).toBe("Financing cancelled");
  });
});

describe("the provider checkout", () => {
  it("shows the plan to review: provider, full schedule with the differing month, rates and totals", async () => {
    const op = await createOperation();
    const response = await get(await chooseTwelveMonths(op.financingUrl));
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(response.headers.get("Referrer-Policy")).toBe("no-referrer");
    const page = await response.text();

    // 12 months: Crédito Levante and Financiera Olivo both offer it; sorted by name, Levante comes first.
    expect(page).toContain('<header class="provider-bar"><p>Crédito Levante');
    expect(h1(page)).toBe("Review and sign your plan");
    expect(page).toContain("<caption>Payment schedule</caption>");
    const months = [...page.matchAll(/<th scope="row">Month (\d+)/g)].map((m) => Number(m[1]));
    expect(months).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(page).toMatch(/<tr class="differs"><th scope="row">Month 12 <span class="tag">differs<\/span>/);
    expect(page).toMatch(/Month 12 differs from the others: 0,\d\d\u00a0€ (more|less) for rounding\./);
    expect(page).toContain("<dt>TIN</dt><dd>12,50\u00a0%</dd>");
    expect(page).toMatch(/<dt>TAE<\/dt><dd>\d+,\d\d\u00a0%<\/dd>/);
    expect(page).toContain("<dt>Total financed</dt><dd>1.234,50\u00a0€</dd>");
    expect(page).toContain("Sign and accept");
    expect(page).toMatch(/<form method="post" action="\/sandbox\/provider\/checkout\/[0-9a-f]{32}\/sign"/);
    expect(page).toMatch(/formaction="\/sandbox\/provider\/checkout\/[0-9a-f]{32}\/decline">Decline<\/button>/);

    // The schedule adds up to the total owed.
    const amounts = [...page.matchAll(/<td class="num">(?:<strong>)?([\d.]+,\d\d)\u00a0€/g)].map((m) =>
      Number((m[1] ?? "").replaceAll(".", "").replace(",", ".")),
    );
    expect(amounts).toHaveLength(13);
    const total = amounts.pop() ?? 0;
    expect(Math.round(amounts.reduce((sum, a) => sum + a, 0) * 100)).toBe(Math.round(total * 100));
  });

  it("explains a first installment that carries the opening fee", async () => {
    const op = await createOperation();
    const page = await (await get(op.financingUrl)).text();
    const nube = offersOn(page).find((o) => o.label.startsWith("Banca Nube: 6 monthly"));
    const response = await postForm(op.financingUrl, { offerId: String(nube?.id) });
    const checkout = await (await get(response.headers.get("Location") ?? "")).text();
    expect(checkout).toMatch(/<tr class="differs"><th scope="row">Month 1 <span class="tag">differs/);
    expect(checkout).toContain("Month 1 differs from the others: it includes the opening fee of 30,86\u00a0€.");
  });

  it("signs: CONFIRMED, a webhook, and a 303 to the success URL with the operation's parameters", async () => {
    const op = await createOperation();
    const checkout = await chooseTwelveMonths(op.financingUrl);
    const response = await postForm(`${checkout}/sign`);
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe(
      `https://shop.example/return/success?ref=abc&operationId=${op.id}&externalId=${op.externalId}&status=CONFIRMED`,
    );
    // The redirect itself carries the token-bearing URL's policy: no Referer to the shop.
    expect(response.headers.get("Referrer-Policy")).toBe("no-referrer");
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(await status(op.id)).toBe("CONFIRMED");

    await sandbox.engine.idle();
    expect(webhooks.map((w) => w.body)).toContainEqual(
      expect.objectContaining({ operationIdentifier: op.id, operationStatus: "CONFIRMED" }),
    );
  });

  it("served by the app, sends the customer on its own only to the app: a return URL elsewhere is a link on the result page", async () => {
    await sandbox.close();
    sandbox = createSandbox({
      tickMs: 0,
      redirectOrigins: ["https://checkout.example"],
      lookup: async () => [{ address: "203.0.113.10", family: 4 }],
      database: { ...database, close: async () => {} },
    });
    // Anyone holding the published keys may name any return URL.
    const elsewhere = await createOperation();
    const signed = await postForm(`${await chooseTwelveMonths(elsewhere.financingUrl)}/sign`);
    expect(signed.status).toBe(303);
    const location = signed.headers.get("Location") ?? "";
    expect(location).toMatch(new RegExp(`^${ORIGIN}/sandbox/pay/result\\?`));
    expect(await status(elsewhere.id)).toBe("CONFIRMED");
    const result = await (await get(location)).text();
    expect(result).toContain(`href="https://shop.example/return/success?ref=abc&amp;operationId=${elsewhere.id}`);

    const own = await createOperation({ successRedirectUrl: "https://checkout.example/checkout/return?s=1" });
    const back = await postForm(`${await chooseTwelveMonths(own.financingUrl)}/sign`);
    expect(back.headers.get("Location")).toMatch(/^https:\/\/checkout\.example\/checkout\/return\?s=1&operationId=/);
  });

  it("does not fail on a second sign: it follows the first decision", async () => {
    const op = await createOperation();
    const checkout = await chooseTwelveMonths(op.financingUrl);
    const first = await postForm(`${checkout}/sign`);
    const second = await postForm(`${checkout}/sign`);
    expect(second.status).toBe(303);
    expect(second.headers.get("Location")).toBe(first.headers.get("Location"));
    // Declining after signing changes nothing either.
    const decline = await postForm(`${checkout}/decline`);
    expect(decline.status).toBe(303);
    expect(decline.headers.get("Location")).toBe(first.headers.get("Location"));
    // And the back button to the checkout goes on to the outcome.
    const back = await get(checkout);
    expect(back.status).toBe(303);
    expect(back.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(await status(op.id)).toBe("CONFIRMED");
  });

  it("is refused by the provider after signing (+decline): REFUSED and the error URL", async () => {
    const op = await createOperation({ email: "ana+decline@example.com" });
    const checkout = await chooseTwelveMonths(op.financingUrl);
    const response = await postForm(`${checkout}/sign`);
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe(`${ERROR_URL}?operationId=${op.id}&externalId=${op.externalId}&status=REFUSED`);
    expect(await status(op.id)).toBe("REFUSED");
  });

  it("declines with the Decline button: REFUSED and the error URL", async () => {
    const op = await createOperation();
    const checkout = await chooseTwelveMonths(op.financingUrl);
    const response = await postForm(`${checkout}/decline`);
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe(`${ERROR_URL}?operationId=${op.id}&externalId=${op.externalId}&status=REFUSED`);
    expect(await status(op.id)).toBe("REFUSED");
  });

  it("answers 404 as a page for an unknown request token", async () => {
    for (const response of [
      await get(`${ORIGIN}/sandbox/provider/checkout/${"f".repeat(32)}`),
      await postForm(`${ORIGIN}/sandbox/provider/checkout/${"f".repeat(32)}/sign`),
      await get(`${ORIGIN}/sandbox/provider/nowhere`),
    ]) {
      expect(response.status).toBe(404);
      expect(response.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    }
  });

  it("sends a GET of a form target back to the checkout page", async () => {
    const op = await createOperation();
    const checkout = await chooseTwelveMonths(op.financingUrl);
    const response = await get(`${checkout}/sign`);
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe(checkout);
    expect(await status(op.id)).toBe("CLIENT_REQUESTED");
  });
});

describe("the default result page", () => {
  it("is where the customer lands when the partner gave no redirect URLs: confirmed", async () => {
    const op = await createOperation({ redirects: false });
    const checkout = await chooseTwelveMonths(op.financingUrl);
    const response = await postForm(`${checkout}/sign`);
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get("Location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(`${ORIGIN}/sandbox/pay/result`);
    expect(location.searchParams.get("operation")).toBe(op.id);

    const result = await get(location.toString());
    expect(result.status).toBe(200);
    expect(result.headers.get("Cache-Control")).toBe("no-store");
    const page = await result.text();
    expect(h1(page)).toBe("Financing confirmed");
    expect(page).toContain('<span class="status">CONFIRMED</span>');
    // No partner URL to return to: no link that leads nowhere.
    expect(page).not.toContain('class="button');
  });

  it("explains a refusal", async () => {
    const op = await createOperation({ redirects: false });
    const checkout = await chooseTwelveMonths(op.financingUrl);
    const response = await postForm(`${checkout}/decline`);
    const page = await (await get(response.headers.get("Location") ?? "")).text();
    expect(h1(page)).toBe("Financing refused");
    expect(page).toContain("no installment will be charged");
  });

  it("is used instead of a partner URL that is not http(s)", async () => {
    // The API refuses such URLs (400 naming the field)...
    const refused = await sandbox.fetch(
      new Request(`${ORIGIN}/sandbox/v1/operations`, {
        method: "POST",
        headers: { "X-Service-API-Key": KEY, "Content-Type": "application/json" },
        body: JSON.stringify({ packageTravel: true, travelersNumber: 1, successRedirectUrl: "javascript:alert(1)" }),
      }),
    );
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain("successRedirectUrl");
    // ...and the pages would not follow one that got in anyway (defence in depth).
    const op = await createOperation();
    const stored = await sandbox.engine.operationByToken(op.id, new URL(op.financingUrl).searchParams.get("token") ?? "");
    await database.db
      .update(sandboxOperations)
      .set({ request: { ...stored!.request, successRedirectUrl: "javascript:alert(1)" } })
      .where(eq(sandboxOperations.id, op.id));
    const checkout = await chooseTwelveMonths(op.financingUrl);
    const response = await postForm(`${checkout}/sign`);
    expect(response.headers.get("Location")).toMatch(`${ORIGIN}/sandbox/pay/result?operation=${op.id}&`);
    const page = await (await get(response.headers.get("Location") ?? "")).text();
    expect(h1(page)).toBe("Financing confirmed");
    expect(page).not.toContain("javascript:");
  });

  it("answers 404 for a wrong token", async () => {
    const op = await createOperation();
    const response = await get(`${ORIGIN}/sandbox/pay/result?operation=${op.id}&token=nope`);
    expect(response.status).toBe(404);
    expect(h1(await response.text())).toBe("This link is not valid");
  });
});

describe("engine errors on the pages", () => {
  it("become an HTML page with the engine's status, not JSON", async () => {
    const op = await createOperation();
    const checkout = await chooseTwelveMonths(op.financingUrl);
    // A rule the pages don't check themselves, refusing at the engine (say a future one).
    vi.spyOn(sandbox.engine, "sign").mockImplementation(() => {
      throw businessError(409, "NOT_ACTIVE_OPERATION", `Operation ${op.id} cannot be signed now`);
    });

    const response = await postForm(`${checkout}/sign`);
    expect(response.status).toBe(409);
    expect(response.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("Referrer-Policy")).toBe("no-referrer");
    const page = await response.text();
    expect(h1(page)).toBe("This step is already done");
    expect(page).toContain(`Operation ${op.id} cannot be signed now`);
    expect(page).toContain("NOT_ACTIVE_OPERATION");
  });

  it("leave the partner API's JSON errors and headers alone", async () => {
    const response = await sandbox.fetch(
      new Request(`${ORIGIN}/sandbox/v1/operations/op_unknown/status`, { headers: { "X-Service-API-Key": KEY } }),
    );
    expect(response.status).toBe(404);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(response.headers.get("Referrer-Policy")).toBeNull();
  });
});

describe("the addresses given to browsers", () => {
  it("are on the configured public origin, whatever address the sandbox is called on", async () => {
    await sandbox.close();
    sandbox = createSandbox({
      tickMs: 0,
      publicOrigin: "https://checkout.example:8443/",
      lookup: async () => [{ address: "203.0.113.10", family: 4 }],
      database: { ...database, close: async () => {} },
    });
    // Called on ORIGIN (the app calls its own sandbox on localhost:$PORT), seen by browsers elsewhere.
    const op = await createOperation({ redirects: false });
    expect(op.financingUrl).toMatch(/^https:\/\/checkout\.example:8443\/sandbox\/pay\/financing\?/);

    const offers = await sandbox.fetch(new Request(`${ORIGIN}/sandbox/v1/financing/${op.id}`, { headers: { "X-Service-API-Key": KEY } }));
    const [offer] = ((await offers.json()) as { financialOffers: { id: number }[] }).financialOffers;
    const requested = await sandbox.fetch(
      new Request(`${ORIGIN}/sandbox/v1/financing`, {
        method: "POST",
        headers: { "X-Service-API-Key": KEY, "Content-Type": "application/json" },
        body: JSON.stringify({ operationIdentifier: op.id, financialOfferId: offer?.id }),
      }),
    );
    const start = (await requested.json()) as { financingStatus: string; paymentUrl?: string };
    expect(start.paymentUrl).toMatch(/^https:\/\/checkout\.example:8443\/sandbox\/provider\/checkout\/\w+$/);

    // The hosted pages' redirects and links too, with the page requested on ORIGIN.
    const pageUrl = new URL(op.financingUrl);
    const local = `${ORIGIN}${pageUrl.pathname}${pageUrl.search}`;
    const status = await get(local);
    expect(await status.text()).toContain(`href="https://checkout.example:8443/sandbox/provider/checkout/`);
    const declined = await postForm(`${ORIGIN}${new URL(start.paymentUrl ?? "").pathname}/decline`);
    expect(declined.headers.get("Location")).toMatch(/^https:\/\/checkout\.example:8443\/sandbox\/pay\/result\?/);

    const openapi = (await (await get(`${ORIGIN}/sandbox/v1/openapi.json`)).json()) as { servers: { url: string }[] };
    expect(openapi.servers[0]?.url).toBe("https://checkout.example:8443/sandbox/v1");
    expect(JSON.stringify(openapi)).not.toContain(ORIGIN);
  });
});

describe("the pages' language", () => {
  it("is Spanish without an Accept-Language, the customers' language", async () => {
    const op = await createOperation();
    const response = await get(op.financingUrl, "");
    expect(response.headers.get("Content-Language")).toBe("es");
    const page = await response.text();
    expect(page).toContain('<html lang="es">');
    expect(h1(page)).toBe("Elige tu plan de pago a plazos");
    expect(page).toContain("<legend>Planes de pago a plazos</legend>");
    expect(page).toMatch(/Banca Nube: 3 cuotas mensuales de 411,50\u00a0€ \(primera cuota 442,36\u00a0€\)/);
    expect(page).toContain("Primera cuota (distinta)");
    expect(page).toContain("Continuar en la entidad");
    // The way to the other language: this same page, asking for it.
    expect(page).toMatch(/<a href="\/sandbox\/pay\/financing\?operation=[^"]+&amp;lang=en" lang="en" hreflang="en">English<\/a>/);
  });

  it("follows Accept-Language by its weights", async () => {
    const op = await createOperation();
    expect(h1(await (await get(op.financingUrl, "fr-FR, es;q=0.8, en;q=0.5")).text())).toBe("Elige tu plan de pago a plazos");
    expect(h1(await (await get(op.financingUrl, "es;q=0.4, en-US")).text())).toBe("Choose your installment plan");
  });

  it("is the `lang` parameter's when given, kept through the provider checkout to the result page", async () => {
    const op = await createOperation({ redirects: false });
    const financing = `${op.financingUrl}&lang=es`;
    // The browser asks for English; the address for Spanish.
    const page = await (await get(financing)).text();
    expect(h1(page)).toBe("Elige tu plan de pago a plazos");
    const chosen = await postForm(financing, {
      offerId: String(offerWith(page.replace(/cuotas mensuales/g, "monthly installments"), 12).id),
    });
    const checkout = chosen.headers.get("Location") ?? "";
    expect(new URL(checkout).searchParams.get("lang")).toBe("es");

    const provider = await (await get(checkout)).text();
    expect(h1(provider)).toBe("Revisa y firma tu plan");
    expect(provider).toContain("<caption>Calendario de pagos</caption>");
    expect(provider).toContain("Firmar y aceptar");
    expect(provider).toContain("Pago en la entidad (simulado)");
    expect(provider).toMatch(/<form method="post" action="\/sandbox\/provider\/checkout\/\w+\/sign\?lang=es"/);

    const signed = await postForm(`${new URL(checkout).pathname}/sign?lang=es`.replace(/^/, ORIGIN));
    const result = signed.headers.get("Location") ?? "";
    expect(new URL(result).searchParams.get("lang")).toBe("es");
    expect(h1(await (await get(result)).text())).toBe("Financiación confirmada");
  });

  it("is the same for an error page", async () => {
    const response = await get(`${ORIGIN}/sandbox/pay/financing?operation=op_x&token=wrong`, "es-ES");
    expect(response.status).toBe(404);
    expect(h1(await response.text())).toBe("Este enlace no es válido");
  });
});
