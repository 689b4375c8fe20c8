import { tripDayFromToday } from "../../lib/checkout/session/trip-dates";
import { APP, SANDBOX, SANDBOX_KEY, type Page } from "./servers";

/*
 * The checkout journey the bench drives as a browser without JavaScript would: sessions opened
 * through the checkout sessions API, the details and plan forms posted, the sandbox's latency set.
 */

/** Published sandbox credentials (docs/qa/README.md): the demo partner's secret (the sandbox agency's key is in servers.ts). */
export const PARTNER_SECRET = "demo_partner_secret_sandbox_only";

export { SANDBOX_KEY };

export function sessionBody(reference: string, base: string) {
  return {
    booking: {
      bookingReference: reference,
      packageName: "Lisboa, 4 noches",
      travellers: 2,
      totalPrice: { amount: 1234.5, currency: "EUR" },
      flights: [{ origin: "MAD", destination: "LIS", departureDate: tripDayFromToday(60), returnDate: tripDayFromToday(64) }],
    },
    customer: { firstName: "Ana", lastName: "García López" },
    returnUrl: `${base}/`,
    locale: "es",
  };
}

export async function openSession(base: string, reference: string): Promise<string> {
  const response = await fetch(`${base}/api/checkout-sessions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${PARTNER_SECRET}`, "Content-Type": "application/json" },
    body: JSON.stringify(sessionBody(reference, base)),
  });
  if (response.status !== 201) throw new Error(`opening a session: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/** The hidden fields of the page's n-th form (Next's action id and bound state among them), as a browser without JavaScript sends them. */
export function hiddenFields(html: string, formIndex = 0): [string, string][] {
  const form = html.split("<form").slice(1)[formIndex]?.split("</form>")[0] ?? "";
  const decode = (value: string) =>
    value.replaceAll("&quot;", '"').replaceAll("&#x27;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
  return [...form.matchAll(/<input type="hidden" name="([^"]+)"(?: value="([^"]*)")?/g)].map((m) => [decode(m[1]!), decode(m[2] ?? "")]);
}

export async function postForm(base: string, pagePath: string, fields: [string, string][]): Promise<Response> {
  const body = new FormData();
  for (const [name, value] of fields) body.append(name, value);
  return fetch(`${base}${pagePath}`, { method: "POST", body, redirect: "manual", headers: { Origin: base } });
}

export function inYears(years: number): string {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() + years);
  return date.toISOString().slice(0, 10);
}

/** What the customer types in the details form. */
export const CUSTOMER_FIELDS = (): [string, string][] => [
  ["firstName", "Ana"],
  ["lastName", "García López"],
  ["email", "ana@example.com"],
  ["prefix", "+34"],
  ["phone", "612345678"],
  ["documentType", "DNI"],
  ["documentId", "12345678Z"],
  ["documentValidityDate", inYears(5)],
  ["gender", "FEMALE"],
  ["birthDate", "1990-07-04"],
  ["nationality", "ESP"],
  ["address", "Calle Mayor 1"],
  ["city", "Madrid"],
  ["postalCode", "28013"],
  ["countryCode", "ESP"],
];

/** The index of the first form of a page that has a field `name` (-1: none). */
export function formWith(html: string, name: string): number {
  return html.split("<form").findIndex((part, i) => i > 0 && part.includes(`name="${name}"`)) - 1;
}

/** Sends the details form (without JavaScript): the operation is created, the offers page is next. */
export async function sendDetails(base: string, sessionId: string): Promise<void> {
  const html = await (await fetch(`${base}/checkout/${sessionId}`)).text();
  const formIndex = formWith(html, "documentId");
  const fields: [string, string][] = [
    ...hiddenFields(html, formIndex).filter(([name]) => name.startsWith("$") || name === "sessionId"),
    ...CUSTOMER_FIELDS(),
  ];
  const response = await postForm(base, `/checkout/${sessionId}`, fields);
  const location = response.headers.get("location") ?? "";
  if (!location.includes("/offers")) throw new Error(`sending the details: ${response.status} ${location}`);
}

/** Chooses the first plan shown (without JavaScript): the session is then pending at the provider. */
export async function choosePlan(base: string, sessionId: string): Promise<void> {
  const html = await (await fetch(`${base}/checkout/${sessionId}/offers`)).text();
  const formIndex = formWith(html, "offerId");
  const response = await postForm(base, `/checkout/${sessionId}/offers`, hiddenFields(html, formIndex));
  if (response.status !== 303) throw new Error(`choosing a plan: ${response.status}`);
}

export async function operationOf(sessionId: string, base = APP): Promise<string> {
  const response = await fetch(`${base}/api/checkout-sessions/${sessionId}`, { headers: { Authorization: `Bearer ${PARTNER_SECRET}` } });
  return ((await response.json()) as { operation: { id: string } }).operation.id;
}

export async function setUpstreamLatency(ms: number): Promise<void> {
  const response = await fetch(`${SANDBOX}/sandbox/_control/faults`, {
    method: "PUT",
    headers: { "X-Service-API-Key": SANDBOX_KEY, "Content-Type": "application/json" },
    body: JSON.stringify(ms > 0 ? { route: "GET /financing/*", fault: "latency", latencyMs: ms } : { faults: [] }),
  });
  if (!response.ok) throw new Error(`setting the sandbox's latency: ${response.status}`);
}

/** The sessions each app server's pages are measured on: one on the details form, one on the offers, one at the provider (status page). */
export async function openPages(base: string): Promise<{ pages: Page[]; offersId: string }> {
  const stamp = Date.now().toString(36);
  const detailsId = await openSession(base, `BENCH-D-${stamp}`);
  const offersId = await openSession(base, `BENCH-O-${stamp}`);
  await sendDetails(base, offersId);
  const statusId = await openSession(base, `BENCH-S-${stamp}`);
  await sendDetails(base, statusId);
  await choosePlan(base, statusId);
  return {
    offersId,
    pages: [
      ["details", `${base}/checkout/${detailsId}`],
      ["offers", `${base}/checkout/${offersId}/offers`],
      ["status", `${base}/checkout/${statusId}/status`],
    ],
  };
}
