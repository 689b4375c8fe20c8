/**
 * The checkout sessions API's OpenAPI document states the limits the API enforces, and passes the
 * OWASP API Security ruleset (Spectral's, run here in `npm test`) with no error.
 *
 * Every limit the document states on a request (maxLength, maximum, minimum, maxItems), of opening
 * a session, of the list's query, of a cancel's and a refund's bodies, is tried through the handler
 * just over it (refused, 400 naming that field) and at it (not refused for that field): the
 * document is generated from the schemas the handlers validate with, and this shows the two say
 * the same.
 */
import spectralCore, { type Document as DocumentClass, type Spectral as SpectralClass } from "@stoplight/spectral-core";
import owaspRuleset from "@stoplight/spectral-owasp-ruleset";
import * as Parsers from "@stoplight/spectral-parsers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/app-error";
import { errorResponse } from "@/lib/http/error-response";
import type { Database } from "@/lib/db";
import type { CheckoutContext } from "../session/flow";
import { customerDraft, DEMO_SECRET, sessionInput, testContext, testBuckets } from "../testing/context";
import { buildCheckoutApiDocument } from "./openapi";
import { handleCancelSession, handleRefundSession } from "./session-actions";
import { handleListSessions } from "./session-list";
import { handleCreateSession, type SessionsApiThrottles } from "./sessions-api";

// The package is CommonJS: its named exports arrive on the default one under ESM.
const { Spectral, Document } = spectralCore as unknown as { Spectral: typeof SpectralClass; Document: typeof DocumentClass };

describe("the OWASP API Security ruleset (Spectral)", () => {
  // As a deployment serves it, in either environment (https: the sandbox one on a shared server too).
  it.each(["production", "sandbox"] as const)("finds no error in the %s document", async (environment) => {
    const doc = buildCheckoutApiDocument({ serverUrl: "https://checkout.example.com/api", environment });
    const spectral = new Spectral();
    spectral.setRuleset(owaspRuleset as Parameters<typeof spectral.setRuleset>[0]);
    const results = await spectral.run(new Document(JSON.stringify(doc, null, 2), Parsers.Json));
    const errors = results.filter((result) => result.severity === 0).map((result) => `${result.code} at ${result.path.join(".")}`);
    expect(errors).toEqual([]);
    // The ruleset did run: free text (names, addresses) has no pattern to state, which it warns about.
    expect(results.some((result) => result.code === "owasp:api4:2023-string-restricted")).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------

type Schema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  maxLength?: number;
  maximum?: number;
  minimum?: number;
  maxItems?: number;
};

interface Limit {
  path: (string | number)[];
  kind: "maxLength" | "maximum" | "minimum" | "maxItems";
  value: number;
  schema: Schema;
}

const doc = buildCheckoutApiDocument({ serverUrl: "https://checkout.example.com/api", environment: "production" });
const components = doc.components.schemas as Record<string, Schema>;

function resolve(schema: Schema): Schema {
  return schema.$ref ? resolve(components[schema.$ref.replace("#/components/schemas/", "")]!) : schema;
}

/** Every limit the document states under `schema`, with where it applies (an array's first item for its items). */
function limitsOf(schema: Schema, path: (string | number)[] = []): Limit[] {
  const s = resolve(schema);
  const own: Limit[] = (["maxLength", "maximum", "minimum", "maxItems"] as const)
    .filter((kind) => typeof s[kind] === "number")
    .map((kind) => ({ path, kind, value: s[kind]!, schema: s }));
  const nested = [
    ...Object.entries(s.properties ?? {}).flatMap(([name, child]) => limitsOf(child, [...path, name])),
    ...(s.items ? limitsOf(s.items, [...path, 0]) : []),
  ];
  return [...own, ...nested];
}

const requestSchema = doc.paths["/checkout-sessions"]!.post!.requestBody as { content: { "application/json": { schema: Schema } } };
const LIMITS = limitsOf(requestSchema.content["application/json"].schema);

/** A valid request with every documented field present (an item of each kind, the whole prefill). */
function fullRequest(): Record<string, unknown> {
  const input = sessionInput();
  const { flights } = input.booking;
  return {
    ...input,
    booking: {
      ...input.booking,
      flights: flights.map((flight) => ({ ...flight, carrier: "TP" })),
      hotels: [{ name: "Hotel Tejo", city: "Lisboa", checkInDate: flights[0]!.departureDate, checkOutDate: flights[0]!.returnDate }],
      services: [{ description: "Seguro de viaje", type: "insurance" }],
    },
    customer: { ...customerDraft(), prefix: "+34", birthDate: "1990-05-15", documentValidityDate: "2030-01-01" },
    locale: "es",
  };
}

function get(body: unknown, path: (string | number)[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], body);
}

function set(body: unknown, path: (string | number)[], value: unknown): void {
  const parent = get(body, path.slice(0, -1)) as Record<string | number, unknown>;
  parent[path.at(-1)!] = value;
}

/** The valid value at `path` made `length` long: an e-mail grows at the front, anything else at the end. */
function ofLength(valid: string, length: number, schema: Schema): string {
  const padding = "a".repeat(Math.max(0, length - valid.length));
  return schema.format === "email" ? `${padding}${valid}` : `${valid}${padding}`.slice(0, length);
}

let database: Database;
let ctx: CheckoutContext;

beforeAll(async () => {
  ({ ctx, database } = await testContext("http://127.0.0.1:9/v1"));
});
afterAll(async () => {
  await database?.close();
});

function unlimited(): SessionsApiThrottles {
  const buckets = () => testBuckets(100_000);
  return { createPerPartner: buckets(), createPerIp: buckets(), wrongSecretsPerIp: buckets(), trustedProxyHops: 0 };
}

/** The fields a 400 names for this body; [] when the session was opened. */
async function refusedFields(body: unknown): Promise<string[]> {
  const request = new Request("http://localhost/api/checkout-sessions", {
    method: "POST",
    headers: { Authorization: `Bearer ${DEMO_SECRET}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  try {
    await handleCreateSession(request, unlimited(), () => Promise.resolve(ctx));
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    const response = errorResponse(error);
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { error: { code: string; fields: { field: string }[] } };
    expect(answer.error.code).toBe("validation_failed");
    return answer.error.fields.map((field) => field.field);
  }
}

describe("the limits the document states", () => {
  it("are there: on every string, number and list of the request", () => {
    const stated = new Set(LIMITS.map((limit) => `${limit.path.join(".")} ${limit.kind}`));
    for (const expected of [
      "booking.bookingReference maxLength",
      "booking.packageName maxLength",
      "booking.travellers maximum",
      "booking.totalPrice.amount maximum",
      "booking.flights maxItems",
      "booking.flights.0.departureDate maxLength",
      "customer.nationality maxLength",
      "customer.email maxLength",
      "returnUrl maxLength",
    ]) {
      expect(stated, expected).toContain(expected);
    }
    expect(fullRequest()).toBeTruthy();
  });

  it("the full request used below is accepted as it is", async () => {
    expect(await refusedFields(fullRequest())).toEqual([]);
  });

  it.each(LIMITS.map((limit) => [`${limit.path.join(".")} ${limit.kind} ${limit.value}`, limit] as const))(
    "%s: just past it is refused, naming the field",
    async (_name, limit) => {
      const body = fullRequest();
      const valid = get(body, limit.path);
      const field = limit.path.join(".");
      if (limit.kind === "maxItems") {
        const items = valid as unknown[];
        set(
          body,
          limit.path,
          Array.from({ length: limit.value + 1 }, () => structuredClone(items[0])),
        );
      } else if (limit.kind === "maxLength") {
        set(body, limit.path, ofLength(String(valid), limit.value + 1, limit.schema));
      } else {
        const step = limit.schema.type === "integer" ? 1 : 0.01;
        set(body, limit.path, limit.kind === "maximum" ? limit.value + step : limit.value - step);
      }
      expect(await refusedFields(body)).toContain(field);
    },
  );

  it.each(
    LIMITS.filter((limit) => limit.kind === "maxItems" || (limit.kind === "maxLength" && limit.schema.format === undefined)).map(
      (limit) => [`${limit.path.join(".")} ${limit.kind} ${limit.value}`, limit] as const,
    ),
  )("%s: at it, the field is not refused", async (_name, limit) => {
    const body = fullRequest();
    const valid = get(body, limit.path);
    if (limit.kind === "maxItems") {
      set(
        body,
        limit.path,
        Array.from({ length: limit.value }, () => structuredClone((valid as unknown[])[0])),
      );
    } else {
      set(body, limit.path, ofLength(String(valid), limit.value, limit.schema));
    }
    expect(await refusedFields(body)).not.toContain(limit.path.join("."));
  });
});

// ---------------------------------------------------------------------------------------------
// The other requests: the list's query, a cancel's and a refund's bodies.

type Parameter = { name: string; in: string; schema: Schema };

const listParameters = (doc.paths["/checkout-sessions"]!.get!.parameters as Parameter[]).filter((p) => p.in === "query");
const bodyOf = (path: string) =>
  (doc.paths[path]!.post!.requestBody as { content: { "application/json": { schema: Schema } } }).content["application/json"].schema;
const CANCEL_LIMITS = limitsOf(bodyOf("/checkout-sessions/{id}/cancel"));
const REFUND_LIMITS = limitsOf(bodyOf("/checkout-sessions/{id}/refund"));
const QUERY_LIMITS = listParameters.flatMap((parameter) => limitsOf(parameter.schema, [parameter.name]));

function throttles(): SessionsApiThrottles {
  return { ...unlimited(), readsPerPartner: testBuckets(100_000) };
}

/** What the handler answers: the fields a 400 names, else the status it gave. */
async function answerOf(call: Promise<unknown>): Promise<{ status: number; fields: string[] }> {
  try {
    await call;
    return { status: 200, fields: [] };
  } catch (error) {
    const response = errorResponse(error);
    const body = (await response.json()) as { error: { fields?: { field: string }[] } };
    return { status: response.status, fields: (body.error.fields ?? []).map((field) => field.field) };
  }
}

/** A new open session of the demo partner: a cancel's or a refund's body is checked on it. */
async function openSession(): Promise<string> {
  const request = new Request("http://localhost/api/checkout-sessions", {
    method: "POST",
    headers: { Authorization: `Bearer ${DEMO_SECRET}`, "Content-Type": "application/json" },
    body: JSON.stringify(sessionInput()),
  });
  return (await handleCreateSession(request, unlimited(), () => Promise.resolve(ctx))).body.id;
}

async function post(kind: "cancel" | "refund", body: unknown) {
  const id = await openSession();
  const request = new Request(`http://localhost/api/checkout-sessions/${id}/${kind}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${DEMO_SECRET}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const handle = kind === "cancel" ? handleCancelSession : handleRefundSession;
  return answerOf(handle(request, id, throttles(), () => Promise.resolve(ctx)));
}

function list(parameters: Record<string, string>) {
  const request = new Request(`http://localhost/api/checkout-sessions?${new URLSearchParams(parameters).toString()}`, {
    headers: { Authorization: `Bearer ${DEMO_SECRET}` },
  });
  return answerOf(handleListSessions(request, throttles(), () => Promise.resolve(ctx)));
}

/** A valid value of each documented request field, to move to its limit. */
const VALID: Record<string, string | number> = {
  reason: "Changed plans",
  agencyFeeCents: 0,
  providerFeeCents: 0,
  expectedTotalToRefundCents: 0,
  limit: "20",
  bookingReference: "BK-1",
  createdFrom: "2026-05-01T00:00:00Z",
  createdTo: "2026-05-02T00:00:00Z",
  updatedFrom: "2026-05-01T00:00:00Z",
  updatedTo: "2026-05-02T00:00:00Z",
  state: "open",
  cursor: "abc",
};

/** The value of `limit` just past it (`past`) or at it. */
function valueAt(limit: Limit, past: boolean): string | number {
  const field = String(limit.path.at(-1));
  const valid = VALID[field]!;
  const extra = past ? 1 : 0;
  if (limit.kind === "maxLength") {
    // An instant grows in its fraction of a second, which may be as long as it likes.
    if (limit.schema.format === "date-time")
      return String(valid).replace("Z", `.${"0".repeat(limit.value + extra - String(valid).length - 1)}Z`);
    return ofLength(String(valid), limit.value + extra, limit.schema);
  }
  const step = past ? 1 : 0;
  const value = limit.kind === "maximum" ? limit.value + step : limit.value - step;
  return typeof valid === "string" ? String(value) : value;
}

describe("the limits the document states on the list's query and on a cancel's and a refund's bodies", () => {
  it("are there", () => {
    const stated = (limits: Limit[]) => limits.map((limit) => `${limit.path.join(".")} ${limit.kind}`);
    expect(stated(CANCEL_LIMITS)).toEqual(["reason maxLength"]);
    expect(stated(REFUND_LIMITS)).toEqual(
      expect.arrayContaining(["agencyFeeCents maximum", "agencyFeeCents minimum", "providerFeeCents maximum", "reason maxLength"]),
    );
    expect(stated(QUERY_LIMITS)).toEqual(
      expect.arrayContaining(["limit maximum", "limit minimum", "bookingReference maxLength", "createdFrom maxLength", "cursor maxLength"]),
    );
  });

  it.each(
    [
      ...CANCEL_LIMITS.map((limit) => ["cancel", limit] as const),
      ...REFUND_LIMITS.map((limit) => ["refund", limit] as const),
      ...QUERY_LIMITS.map((limit) => ["list", limit] as const),
    ].map(([kind, limit]) => [`${kind} ${limit.path.join(".")} ${limit.kind} ${limit.value}`, kind, limit] as const),
  )("%s: just past it is refused, naming the field", async (_name, kind, limit) => {
    const field = limit.path.join(".");
    const value = valueAt(limit, true);
    const answer = kind === "list" ? await list({ [field]: String(value) }) : await post(kind, { [field]: value });
    expect(answer.status).toBe(400);
    expect(answer.fields).toContain(field);
  });

  // The state and the cursor are held by their patterns too: a list or a cursor of that length is not one.
  it.each(
    [
      ...CANCEL_LIMITS.map((limit) => ["cancel", limit] as const),
      ...REFUND_LIMITS.map((limit) => ["refund", limit] as const),
      ...QUERY_LIMITS.filter((limit) => !["state", "cursor"].includes(String(limit.path[0]))).map((limit) => ["list", limit] as const),
    ].map(([kind, limit]) => [`${kind} ${limit.path.join(".")} ${limit.kind} ${limit.value}`, kind, limit] as const),
  )("%s: at it, the field is not refused", async (_name, kind, limit) => {
    const field = limit.path.join(".");
    const value = valueAt(limit, false);
    const answer = kind === "list" ? await list({ [field]: String(value) }) : await post(kind, { [field]: value });
    expect(answer.status).toBeLessThan(500);
    expect(answer.fields).not.toContain(field);
  });
});
