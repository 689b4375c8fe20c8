import fc from "fast-check";
import { hostileQuery, hostileSegment, hostileString, mutated, nonObjectJson, notJson, pathsOf, withValueAt } from "./values";
import { SAMPLE_WIRE_CLIENT } from "@/lib/financing/testing/samples";
import { tripDayFromToday } from "@/lib/checkout/session/trip-dates";

/**
 * Hostile requests for every input surface of the app and of its sandbox, as plain data: the fuzz
 * tests (Vitest in-process for the sandbox, Playwright over HTTP for the app) and `npm run fuzz`
 * send the same ones. Every request here is invalid input: it must get a 4xx (or a redirect, or
 * a page saying nothing is there) and change nothing.
 */

export interface FuzzRequest {
  surface: SurfaceName;
  method: string;
  /** Path and query as sent: already percent-encoded, or deliberately malformed. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Sent without a length (Transfer-Encoding: chunked): its size is known only as it is read. */
  chunked?: boolean;
}

/** What the requests need to know of the instance under test. */
export interface FuzzTarget {
  /** The origin requests are sent to (an Origin header for action posts: same-origin, as a browser). */
  origin: string;
  partnerSecret: string;
  webhookToken: string;
  sandboxKey: string;
  /** An existing checkout session of the partner: hostile posts aim at it too. */
  sessionId: string;
  /** Server action ids found in the app's pages (see `actionIdsIn`); random ones are tried too. */
  actionIds: string[];
}

export const SURFACES = [
  "checkout-sessions",
  "webhook",
  "badge",
  "checkout-pages",
  "embed",
  "server-actions",
  "admin",
  "sandbox-api",
  "sandbox-pages",
  "sandbox-control",
] as const;
export type SurfaceName = (typeof SURFACES)[number];

/** The sandbox's surfaces, which its own handler serves (tests run them in-process). */
export const SANDBOX_SURFACES: SurfaceName[] = ["sandbox-api", "sandbox-pages", "sandbox-control"];

const json = { "Content-Type": "application/json" };

// Weeks ahead of today: a fixed date would make the valid body invalid once it passed.
const departure = tripDayFromToday(60);
const back = tripDayFromToday(64);

export const validSessionBody = {
  booking: {
    bookingReference: "FUZZ-1",
    packageName: "Lisboa, 4 noches",
    packageTravel: true,
    travellers: 2,
    totalPrice: { amount: 1234.5, currency: "EUR" },
    flights: [{ origin: "MAD", destination: "LIS", departureDate: departure, returnDate: back, carrier: "TP" }],
    hotels: [{ name: "Hotel", city: "Lisboa", checkInDate: departure, checkOutDate: back }],
    services: [{ description: "Transfer", type: "transfer" }],
  },
  customer: {
    firstName: "Ana",
    lastName: "García",
    email: "ana@example.com",
    phone: "612345678",
    documentId: "12345678Z",
    birthDate: "1990-07-04",
    address: "Calle Mayor 1",
  },
  returnUrl: "https://shop.example.com/back",
  locale: "es",
};

export const validCreateOperationBody = {
  externalId: "FUZZ-OP-1",
  packageName: "Lisbon, 4 nights",
  packageTravel: true,
  travelersNumber: 2,
  totalPrice: 1234.5,
  successRedirectUrl: "https://shop.example.com/ok",
  errorRedirectUrl: "https://shop.example.com/ko",
  webhookUrl: "https://shop.example.com/hook",
  client: SAMPLE_WIRE_CLIENT,
  flights: [{ origin: "MAD", destination: "LIS", departureDate: "01-05-2027", carrier: "TP" }],
  hotels: [{ name: "Hotel", city: "Lisboa", checkInDate: "01-05-2027", checkOutDate: "05-05-2027" }],
  services: [{ description: "Transfer", type: "transfer" }],
};

const validWebhookEvent = { operationIdentifier: "op_fuzz", operationStatus: "CONFIRMED", eventId: 42 };

/** A JSON body that is invalid: one value made hostile, not an object, not JSON, or too large. */
function hostileJsonBody(valid: object, limit: number, freeFormLists: readonly string[] = []): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: mutated(valid, freeFormLists).map((value) => JSON.stringify(value)) },
    { weight: 2, arbitrary: nonObjectJson },
    { weight: 2, arbitrary: notJson },
    { weight: 1, arbitrary: fc.constant(tooLarge(valid, limit)) },
  );
}

/** Past the limit, and invalid even if it were read: its first value made a NUL and padded. */
function tooLarge(valid: object, limit: number): string {
  const first = pathsOf(valid).find((path) => typeof path.at(-1) === "string")!;
  return JSON.stringify(withValueAt(valid, first, `\u0000${"x".repeat(limit)}`));
}

function request(surface: SurfaceName, method: string, path: string, headers: Record<string, string> = {}, body?: string): FuzzRequest {
  return { surface, method, path, headers, ...(body === undefined ? {} : { body }) };
}

/** A multipart body, as a browser sends a form (the boundary is fixed). */
export function multipart(fields: [string, string][]): { contentType: string; body: string } {
  const boundary = "----fuzzboundary7MA4YWxkTrZu0gW";
  const body =
    fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join("") +
    `--${boundary}--\r\n`;
  return { contentType: `multipart/form-data; boundary=${boundary}`, body };
}

const CUSTOMER_FORM_FIELDS = [
  "firstName",
  "lastName",
  "email",
  "prefix",
  "phone",
  "documentId",
  "birthDate",
  "address",
  "city",
  "postalCode",
  "returnTo",
  "locale",
  "reason",
  "brand",
  "password",
  "next",
  "offerId",
];

/** Redirect targets no switch may put in a Location header as they are. */
export const hostileRedirectTarget: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "/admin\r\nSet-Cookie: injected=1",
    "/\r\n\r\n<html>",
    "/ad\nmin",
    "/caf\u00e9\u20ac",
    "/admin/\u65c5\u884c?q=\u{1f600}",
    "/admin?next=\u0100",
    "//evil.example/",
    "/\\evil.example",
    "https://evil.example/admin",
    "javascript:alert(1)",
    "/\u0085",
  ),
  fc
    .tuple(fc.string({ maxLength: 8 }), fc.constantFrom("\r\n", "\u0100", "\u20ac", "\u{1f600}", "\r"))
    .map(([tail, bad]) => `/admin/${tail}${bad}`),
);

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/**
 * List cursors as someone forging one would write them: the list's own shape (an instant to the
 * microsecond, a session id, a filters' fingerprint) with impossible or made-up values (2026-13-45),
 * with no signature, a made-up one, or one copied from elsewhere; or anything at all.
 */
export const forgedCursor: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(
      fc.tuple(fc.nat(9999), fc.nat(99), fc.nat(99), fc.nat(99), fc.nat(99), fc.nat(99), fc.nat(999_999)),
      fc.oneof(fc.constant("cs_aaaaaaaaaaaaaaaaaaaaaaaa"), hostileString),
      fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.constant(null)),
      fc.option(fc.oneof(fc.base64String({ minLength: 20, maxLength: 24 }), fc.constant("AAAAAAAAAAAAAAAAAAAAAA"), hostileSegment)),
    )
    .map(([[year, month, day, hour, minute, second, micros], id, fingerprint, mac]) => {
      const instant = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}.${pad(micros, 6)}Z`;
      const payload = Buffer.from(JSON.stringify([instant, id, fingerprint])).toString("base64url");
      return mac === null ? payload : `${payload}.${mac.replace(/[+/=]/g, "_")}`;
    }),
  fc.base64String({ maxLength: 200 }).map((value) => value.replace(/[+/=]/g, "-")),
  hostileSegment,
);

/**
 * Event feed cursors as someone forging one would write them: the feed's own shape (a position,
 * as a signed cursor carries it) with made-up or negative or huge positions, with no signature, a
 * made-up one, or one copied from elsewhere; numbers of the earlier deployment-wide form, in range
 * or not; or any list cursor the list's forger writes.
 */
export const forgedEventCursor: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(
      fc.oneof(
        fc.nat(),
        fc.integer({ min: -1000, max: -1 }),
        fc.double(),
        fc.constant(Number.MAX_SAFE_INTEGER + 2),
        fc.string({ maxLength: 8 }),
      ),
      fc.option(fc.oneof(fc.base64String({ minLength: 20, maxLength: 24 }), fc.constant("AAAAAAAAAAAAAAAAAAAAAA"), hostileSegment)),
    )
    .map(([position, mac]) => {
      const payload = Buffer.from(JSON.stringify([position])).toString("base64url");
      return mac === null ? payload : `${payload}.${mac.replace(/[+/=]/g, "_")}`;
    }),
  fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.bigInt({ min: -(10n ** 20n), max: -1n })).map(String),
  forgedCursor,
);

/** Methods no route serves: the HTTP parser's own (TRACE, CONNECT, WebDAV's) and made-up ones it does not know. */
export const UNSERVED_METHODS = ["TRACE", "PROPFIND", "CONNECT", "BREW", "FOO", "M-SEARCH"] as const;

export function surfaceArbitraries(target: FuzzTarget): Record<SurfaceName, fc.Arbitrary<FuzzRequest>> {
  const auth = { Authorization: `Bearer ${target.partnerSecret}` };
  const key = { "X-Service-API-Key": target.sandboxKey };
  const segment = hostileSegment;

  const checkoutSessions = fc.oneof(
    hostileJsonBody(validSessionBody, 64 * 1024).map((body) =>
      request("checkout-sessions", "POST", "/api/checkout-sessions", { ...auth, ...json }, body),
    ),
    fc
      .tuple(fc.constantFrom("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"), notJson)
      .map(([type, body]) => request("checkout-sessions", "POST", "/api/checkout-sessions", { ...auth, "Content-Type": type }, body)),
    segment.map((id) => request("checkout-sessions", "GET", `/api/checkout-sessions/${id}`, auth)),
    hostileQuery(["after", "limit"]).map((query) => request("checkout-sessions", "GET", `/api/events${query}`, auth)),
    // The list's cursors, forged (an impossible date among them), alone or with filters; the feed's `after` too (its own forgeries).
    fc
      .tuple(forgedCursor, fc.option(hostileQuery(["limit", "state", "createdFrom", "bookingReference"])))
      .map(([cursor, query]) =>
        request(
          "checkout-sessions",
          "GET",
          `/api/checkout-sessions${query ?? "?"}${query ? "&" : ""}cursor=${encodeURIComponent(cursor)}`,
          auth,
        ),
      ),
    forgedEventCursor.map((cursor) => request("checkout-sessions", "GET", `/api/events?after=${encodeURIComponent(cursor)}`, auth)),
    fc
      .tuple(fc.constantFrom("PUT", "DELETE", "PATCH"), segment)
      .map(([method, id]) => request("checkout-sessions", method, `/api/checkout-sessions/${id}`, auth, "{}")),
  );

  const webhook = fc.oneof(
    hostileJsonBody(validWebhookEvent, 4 * 1024).map((body) =>
      request("webhook", "POST", `/api/webhooks/financing/${target.webhookToken}`, json, body),
    ),
    segment.map((token) => request("webhook", "POST", `/api/webhooks/financing/${token}`, json, JSON.stringify(validWebhookEvent))),
  );

  const badge = hostileQuery(["partner", "amount", "country", "lang"]).map((query) => request("badge", "GET", `/api/badge${query}`));

  const checkoutPages = fc.oneof(
    fc
      .tuple(
        segment,
        fc.constantFrom("", "/offers", "/status", "/status/data", "/return/success", "/return/error", "/return/x"),
        fc.option(hostileQuery(["notice", "embed", "lang", "operationId", "status"])),
      )
      .map(([id, page, query]) => request("checkout-pages", "GET", `/checkout/${id}${page}${query ?? ""}`)),
    fc
      // Not the return routes: on a real session they ask the API for news, by design.
      .tuple(
        fc.constantFrom("/offers", "/status", "/status/data", ""),
        hostileQuery(["notice", "embed", "lang", "handoff", "operationId", "status", "externalId"]),
      )
      .map(([page, query]) => request("checkout-pages", "GET", `/checkout/${target.sessionId}${page}${query}`)),
    fc
      .tuple(fc.constantFrom("", "/about", "/favicon.ico"), segment)
      .map(([page, tail]) => request("checkout-pages", "GET", `${page}/${tail}`)),
    // A method no route serves, on any kind of URL (the app's, its API's, the sandbox's, a static file).
    fc
      .tuple(
        fc.constantFrom(...UNSERVED_METHODS),
        fc.constantFrom(
          "/",
          `/checkout/${target.sessionId}`,
          `/checkout/${target.sessionId}/status/data`,
          "/admin",
          "/api/checkout-sessions",
          "/api/health",
          "/sandbox/v1/health",
          "/embed.js",
        ),
      )
      .map(([method, path]) => request("checkout-pages", method, path)),
  );

  const embed = fc.oneof(
    segment.map((id) => request("embed", "GET", `/embed/${id}/continue`)),
    hostileQuery(["partner", "v", "preview", "brand", "ink", "font", "radius", "logoUrl"]).map((query) =>
      request("embed", "GET", `/embed/theme.css${query}`),
    ),
  );

  // Server actions: the ids the pages carry, and made-up ones; bodies that are no form, React replies
  // that point at parts never sent, and well-formed replies whose fields are hostile.
  const actionId = fc.oneof(
    ...(target.actionIds.length > 0 ? [fc.constantFrom(...target.actionIds)] : []),
    fc.stringMatching(/^[0-9a-f]{42}$/),
    fc.constantFrom("x", "00", ""),
  );
  const page = fc.constantFrom("/", `/checkout/${target.sessionId}`, `/checkout/${target.sessionId}/offers`, "/admin/login", "/admin");
  const sameOrigin = { Origin: target.origin };
  const hostileForm = fc
    .oneof(
      fc.array(fc.tuple(fc.constantFrom(...CUSTOMER_FORM_FIELDS), hostileString), { minLength: 1, maxLength: 5 }),
      // The switches' return targets (language, agency, the sign-in's next step): CR/LF, characters
      // above U+00FF, other origins; with a valid language, so the target is what is judged.
      fc.tuple(fc.constantFrom("returnTo", "next"), hostileRedirectTarget).map(([name, value]) => [
        ["locale", "en"],
        [name, value],
      ]),
    )
    .map((fields) => [["sessionId", target.sessionId], ...fields] as [string, string][]);
  const actionBody = fc.oneof(
    fc
      .tuple(fc.constantFrom("application/json", "text/plain;charset=UTF-8"), fc.oneof(nonObjectJson, notJson, fc.constant('["$K1"]')))
      .map(([type, body]) => ({ type, body })),
    fc.constantFrom('["$@1"]', '["$F1"]', '["$Q1"]', "not json", "[]", '[null,"$K1","$K1","$K1","$K1"]').map((root) => {
      const form = multipart([["0", root]]);
      return { type: form.contentType, body: form.body };
    }),
    fc
      .tuple(fc.constantFrom('["$K1"]', '[null,"$K1"]', '[{"submission":1},"$K1"]', '["x",1]', "[1]"), hostileForm)
      .map(([root, fields]) => {
        const form = multipart([["0", root], ...fields.map(([name, value]) => [`1_${name}`, value] as [string, string])]);
        return { type: form.contentType, body: form.body };
      }),
    fc.constantFrom({ type: "multipart/form-data; boundary=xx", body: "garbage" }, { type: "multipart/form-data", body: "--x\r\n" }),
  );
  const serverActions = fc.oneof(
    fc
      .tuple(page, actionId, actionBody)
      .map(([path, id, body]) =>
        request("server-actions", "POST", path, { ...sameOrigin, "Next-Action": id, "Content-Type": body.type }, body.body),
      ),
    // Without JavaScript: a multipart form naming an action, with hostile fields, or garbage.
    fc.tuple(page, actionId, hostileForm).map(([path, id, fields]) => {
      const form = multipart([[`$ACTION_ID_${id}`, ""], ...fields]);
      return request("server-actions", "POST", path, { ...sameOrigin, "Content-Type": form.contentType }, form.body);
    }),
    page.map((path) =>
      request("server-actions", "POST", path, { ...sameOrigin, "Content-Type": "multipart/form-data; boundary=xx" }, "garbage"),
    ),
    // Past the 64 KB a form may be (a 413 whether its length is declared or not, see sampleRequests).
    fc.tuple(page, actionId).map(([path, id]) => {
      const form = multipart([
        [`$ACTION_ID_${id}`, ""],
        ["sessionId", target.sessionId],
        ["firstName", "a".repeat(100 * 1024)],
      ]);
      return request("server-actions", "POST", path, { ...sameOrigin, "Content-Type": form.contentType }, form.body);
    }),
  );

  const admin = fc.oneof(
    fc
      .tuple(
        fc.constantFrom("/admin", "/admin/operations", "/admin/simulator", "/admin/theme", "/admin/login", "/admin/operations/export"),
        hostileQuery(["page", "size", "status", "from", "to", "next", "amount", "preview", "brand", "notice"]),
      )
      .map(([path, query]) => request("admin", "GET", `${path}${query}`)),
    fc.tuple(segment, fc.constantFrom("", "/refund")).map(([id, tail]) => request("admin", "GET", `/admin/operations/${id}${tail}`)),
  );

  const sandboxApi = fc.oneof(
    hostileJsonBody(validCreateOperationBody, 64 * 1024, ["flights", "hotels", "services"]).map((body) =>
      request("sandbox-api", "POST", "/sandbox/v1/operations", { ...key, ...json }, body),
    ),
    hostileJsonBody({ operationIdentifier: "op_fuzz", financialOfferId: 1 }, 64 * 1024).map((body) =>
      request("sandbox-api", "POST", "/sandbox/v1/financing", { ...key, ...json }, body),
    ),
    hostileJsonBody(validWebhookEvent, 64 * 1024).map((body) =>
      request("sandbox-api", "PUT", "/sandbox/v1/operations/webhook-events/ack", { ...key, ...json }, body),
    ),
    fc
      .tuple(
        segment,
        fc.constantFrom("cancel", "refund"),
        fc.oneof(
          nonObjectJson,
          notJson,
          mutated({ reason: "x", agencyCancellationFee: 1, providerCancellationFee: 1 }).map((v) => JSON.stringify(v)),
        ),
      )
      .map(([id, action, body]) => request("sandbox-api", "POST", `/sandbox/v1/operations/${id}/${action}`, { ...key, ...json }, body)),
    fc
      .tuple(
        fc.oneof(segment, fc.constantFrom("9007199254740994", "1e400", "0", "-1", "NaN", "60.001", "99999999999999999999")),
        fc.option(hostileQuery(["countryCode"])),
      )
      .map(([amount, query]) => request("sandbox-api", "GET", `/sandbox/v1/financing/simulate/${amount}${query ?? ""}`, key)),
    fc
      .tuple(
        segment,
        fc.constantFrom("/status", "/refund/details", ""),
        fc.constantFrom("/sandbox/v1/operations/", "/sandbox/v1/financing/", "/sandbox/v1/operations/by-external-id/"),
      )
      .map(([id, tail, base]) => request("sandbox-api", "GET", `${base}${id}${base.endsWith("operations/") ? tail : ""}`, key)),
    hostileQuery(["page", "size", "status", "from", "to"]).map((query) =>
      request("sandbox-api", "GET", `/sandbox/v1/operations${query}`, key),
    ),
    fc.tuple(hostileString, segment).map(([badKey, tail]) =>
      request("sandbox-api", "GET", `/sandbox/v1/health/${tail}`, {
        "X-Service-API-Key": encodeURIComponent(badKey.replace(/[\ud800-\udfff]/g, "\u0000")),
      }),
    ),
  );

  const sandboxPages = fc.oneof(
    fc
      .tuple(fc.constantFrom("/sandbox/pay/financing", "/sandbox/pay/result"), hostileQuery(["operation", "token"]))
      .map(([path, query]) => request("sandbox-pages", "GET", `${path}${query}`)),
    fc
      .tuple(hostileQuery(["operation", "token"]), fc.oneof(notJson, hostileString))
      .map(([query, body]) =>
        request(
          "sandbox-pages",
          "POST",
          `/sandbox/pay/financing${query}`,
          { "Content-Type": "application/x-www-form-urlencoded" },
          `offerId=${encodeURIComponent(body.replace(/[\ud800-\udfff]/g, ""))}`,
        ),
      ),
    fc
      .tuple(segment, fc.constantFrom("", "/sign", "/decline"), fc.constantFrom("GET", "POST"))
      .map(([token, action, method]) => request("sandbox-pages", method, `/sandbox/provider/checkout/${token}${action}`)),
    segment.map((tail) => request("sandbox-pages", "GET", `/sandbox/pay/${tail}`)),
  );

  // Never a valid body: a valid fault or clock move would change the sandbox, by design.
  const sandboxControl = fc.oneof(
    fc
      .tuple(
        fc.constantFrom("/clock/advance", "/faults"),
        fc.oneof(
          nonObjectJson,
          notJson,
          mutated({ seconds: 60 }).map((v) => JSON.stringify(v)),
          mutated({ fault: "500", rate: 1 }).map((v) => JSON.stringify(v)),
        ),
      )
      .map(([path, body]) =>
        request("sandbox-control", path === "/faults" ? "PUT" : "POST", `/sandbox/_control${path}`, { ...key, ...json }, body),
      ),
    fc
      .tuple(
        segment,
        fc.constantFrom("/decision", "/webhooks", ""),
        fc.oneof(
          nonObjectJson,
          notJson,
          mutated({ decision: "approve" }).map((v) => JSON.stringify(v)),
        ),
      )
      .map(([id, tail, body]) =>
        request(
          "sandbox-control",
          tail === "/decision" ? "POST" : "GET",
          `/sandbox/_control/operations/${id}${tail}`,
          { ...key, ...json, "X-Service-Agency": "101" },
          tail === "/decision" ? body : undefined,
        ),
      ),
  );

  return {
    "checkout-sessions": checkoutSessions,
    webhook,
    badge,
    "checkout-pages": checkoutPages,
    embed,
    "server-actions": serverActions,
    admin,
    "sandbox-api": sandboxApi,
    "sandbox-pages": sandboxPages,
    "sandbox-control": sandboxControl,
  };
}

/** Server action ids in a page's HTML (forms carry them, for posts without JavaScript). */
export function actionIdsIn(html: string): string[] {
  return [
    ...new Set(
      [...html.matchAll(/\$ACTION_ID_([0-9a-f]{40,42})|&quot;id&quot;:&quot;([0-9a-f]{40,42})&quot;|"id":"([0-9a-f]{40,42})"/g)].map(
        (m) => m[1] ?? m[2] ?? m[3]!,
      ),
    ),
  ];
}

/** A deterministic list of hostile requests, `count` of them, spread over the surfaces. */
export function sampleRequests(
  target: FuzzTarget,
  count: number,
  options: { seed?: number; surfaces?: readonly SurfaceName[] } = {},
): FuzzRequest[] {
  const arbitraries = surfaceArbitraries(target);
  const surfaces = options.surfaces ?? SURFACES;
  // One body in four is sent without a length: limits must hold as bodies are read, not only as declared.
  const all = fc
    .tuple(fc.oneof(...surfaces.map((surface) => arbitraries[surface])), fc.nat(3))
    .map(([request, die]) => (request.body !== undefined && die === 0 ? { ...request, chunked: true } : request));
  return fc.sample(all, { numRuns: count, seed: options.seed ?? 12 });
}
