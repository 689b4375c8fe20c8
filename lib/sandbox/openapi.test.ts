import { describe, expect, it } from "vitest";
import { buildOpenApiDocument, type OpenApiDocument } from "./openapi";
import { openApi31Problems } from "@/lib/openapi/testing/validate";
import { createOpenApiChecker } from "./testing/openapi-check";

const doc = buildOpenApiDocument();
const checker = createOpenApiChecker(doc);

const ENDPOINTS = [
  "GET /health",
  "GET /financing/simulate/{totalPrice}",
  "POST /operations",
  "GET /operations",
  "GET /operations/by-external-id/{externalId}",
  "GET /financing/{operationIdentifier}",
  "POST /financing",
  "GET /operations/{operationIdentifier}/status",
  "POST /operations/{id}/cancel",
  "GET /operations/{id}/refund/details",
  "POST /operations/{id}/refund",
  "GET /agencies",
  "PUT /operations/webhook-events/ack",
];

function operations(document: OpenApiDocument) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
  );
}

function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => (key === "$ref" && typeof child === "string" ? [child] : refsIn(child)));
}

function resolve(pointer: string): unknown {
  return pointer
    .slice(2)
    .split("/")
    .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce<unknown>((node, token) => (node as Record<string, unknown> | undefined)?.[token], doc);
}

// ---------------------------------------------------------------------------------------------
// Example bodies, written by hand from the spec

const money = (amount: number) => ({ amount, currency: "EUR" });

const operation = {
  id: "op_123",
  operationNumber: 1001,
  externalId: "BK-2024-001",
  status: "GENERATED",
  totalPrice: money(1200),
  totalReserve: money(1236),
  financingUrl: "http://localhost:3000/sandbox/pay/financing?operation=op_123&token=abc",
  updatedAt: "2024-06-10T08:30:00.000Z",
};

const offer = {
  id: 7,
  companyName: "Finanzia",
  tae: 12.68,
  tin: 11.99,
  installments: 6,
  commonQuota: 206.52,
  differentialQuota: 206.5,
  differentialIsFirst: false,
  totalInterestPaid: 39.1,
  totalFinanced: 1200,
  promotional: true,
};

const refundBreakdown = {
  operationId: "op_123",
  totalReserve: money(1236),
  managementFees: money(36),
  fliinowCancellationFee: money(24),
  fliinowCancellationFeePercentage: 2,
  totalToRefund: money(1176),
};

const sort = { empty: false, sorted: true, unsorted: false };
const page = {
  content: [operation, { ...operation, id: "op_124", externalId: null, financingUrl: null, status: "CONFIRMED" }],
  pageable: { pageNumber: 0, pageSize: 20, offset: 0, paged: true, unpaged: false, sort },
  number: 0,
  size: 20,
  numberOfElements: 2,
  totalElements: 2,
  totalPages: 1,
  first: true,
  last: true,
  empty: false,
  sort,
};

const statusHeaders = {
  ETag: '"CONFIRMED-1718008200"',
  "Cache-Control": "max-age=60, must-revalidate",
  "Content-Type": "application/json",
};

function expectOk(result: ReturnType<typeof checker.check>) {
  expect(result).toEqual({ ok: true });
}

function expectRejected(result: ReturnType<typeof checker.check>, fragment: string) {
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.errors).toContain(fragment);
}

// ---------------------------------------------------------------------------------------------

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1.0, versioned like the reference", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info).toMatchObject({ title: "Travel Financing Partner API (sandbox)", version: "1.8.0" });
    expect(doc.servers[0]?.url).toBe("http://localhost:3000/sandbox/v1");
  });

  it("is valid OpenAPI 3.1 by the specification's own JSON Schema, whatever the header names", () => {
    expect(openApi31Problems(doc)).toEqual([]);
    const custom = buildOpenApiDocument({
      apiKeyHeader: "X-Acme-API-Key",
      agencyHeader: "X-Acme-Agency",
      serverUrl: "https://sandbox.test/v1",
    });
    expect(openApi31Problems(custom)).toEqual([]);
  });

  it("lists the 13 endpoints of the spec, and only those", () => {
    expect(
      operations(doc)
        .map((o) => o.key)
        .sort(),
    ).toEqual([...ENDPOINTS].sort());
  });

  it("resolves every $ref", () => {
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of new Set(refs)) {
      expect(ref, ref).toMatch(/^#\//);
      expect(resolve(ref), ref).toBeDefined();
    }
  });

  it("is plain JSON", () => {
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it("has the shared schemas as components, and no $schema/$id inside them", () => {
    const names = Object.keys(doc.components.schemas);
    for (const name of [
      "Operation",
      "FinancialOffer",
      "FinancialOffersResponse",
      "Agency",
      "RefundBreakdown",
      "Money",
      "OperationStatusResponse",
      "HealthResponse",
      "OperationsPage",
      "StartFinancingRequest",
      "StartFinancingResponse",
      "CreateOperationRequest",
      "CancelRequest",
      "RefundRequest",
      "WebhookEvent",
      "BusinessError",
      "GeneralError",
      "AuthError",
    ]) {
      expect(names).toContain(name);
    }
    for (const schema of Object.values(doc.components.schemas)) {
      expect(schema).not.toHaveProperty("$schema");
      expect(schema).not.toHaveProperty("$id");
      expect(schema).not.toHaveProperty("id");
    }
  });

  it("puts back what zod refinements cannot say, and keeps loose objects open", () => {
    const { schemas } = doc.components;
    expect(schemas.Operation).toMatchObject({ additionalProperties: {}, properties: { updatedAt: { format: "date-time" } } });
    expect(schemas.Client).toMatchObject({ properties: { birthDate: { pattern: "^(\\d{2})-(\\d{2})-(\\d{4})$" } } });
    expect(schemas.CreateOperationRequest?.anyOf).toHaveLength(3);
    expect(schemas.FinancialOffer).toMatchObject({ additionalProperties: {} });
    expect(schemas.Money).toMatchObject({ additionalProperties: false });
    const list = doc.paths["/operations"]?.get?.parameters as { name: string; schema: { pattern?: string; maximum?: number } }[];
    expect(list.find((p) => p.name === "from")?.schema.pattern).toBe("^(\\d{4})-(\\d{2})-(\\d{2})$");
    expect(list.find((p) => p.name === "size")?.schema.maximum).toBe(100);
  });

  it("takes parameter descriptions from the contract's metadata, and documents the conditional status call", () => {
    const list = doc.paths["/operations"]?.get?.parameters as { name: string; description?: string }[];
    expect(list.find((p) => p.name === "page")?.description).toBe("Page number, from 0.");
    expect(list.find((p) => p.name === "size")?.description).toBe("Operations per page, at most 100.");
    const status = doc.paths["/operations/{operationIdentifier}/status"]?.get as {
      parameters: { name?: string; in?: string }[];
      responses: Record<string, { headers?: Record<string, unknown>; content?: unknown }>;
    };
    expect(status.parameters).toContainEqual(expect.objectContaining({ name: "If-None-Match", in: "header" }));
    for (const code of ["200", "304"]) {
      expect(status.responses[code]?.headers, code).toEqual({
        ETag: { $ref: "#/components/headers/ETag" },
        "Cache-Control": { $ref: "#/components/headers/CacheControl" },
      });
    }
    expect(status.responses["304"]).not.toHaveProperty("content");
    expect(doc.components.headers.ETag).toMatchObject({ required: true, example: '"CONFIRMED-1718000000"' });
    expect(doc.components.headers.CacheControl).toMatchObject({ required: true, schema: { const: "max-age=60, must-revalidate" } });
  });

  it("secures every endpoint with the key header, and takes the agency header everywhere but GET /agencies", () => {
    const custom = buildOpenApiDocument({
      apiKeyHeader: "X-Acme-API-Key",
      agencyHeader: "X-Acme-Agency",
      serverUrl: "https://sandbox.test/v1",
    });
    expect(custom.security).toEqual([{ ApiKey: [] }]);
    expect(custom.components.securitySchemes.ApiKey).toMatchObject({ type: "apiKey", in: "header", name: "X-Acme-API-Key" });
    expect(custom.components.parameters.Agency).toMatchObject({ name: "X-Acme-Agency", in: "header", required: false });
    expect(custom.servers[0]?.url).toBe("https://sandbox.test/v1");
    for (const { key, operation } of operations(custom)) {
      const usesAgency = refsIn(operation.parameters ?? []).includes("#/components/parameters/Agency");
      expect(usesAgency, key).toBe(key !== "GET /agencies");
      expect(Object.keys(operation.responses as object), key).toEqual(expect.arrayContaining(["401", "429", "500"]));
    }
  });

  it("documents 403 on every operation-scoped endpoint and 400 wherever input is validated", () => {
    const scoped = ENDPOINTS.filter((e) => /\{(id|operationIdentifier|externalId)\}|POST \/financing$|ack$/.test(e));
    for (const key of scoped) {
      const operation = operations(doc).find((o) => o.key === key)!.operation;
      expect(operation.responses, key).toHaveProperty("403");
      expect(JSON.stringify(operation.responses), key).toContain("OPERATION_ACCESS_DENIED");
    }
    for (const key of ENDPOINTS.filter((e) => e !== "GET /agencies")) {
      expect(operations(doc).find((o) => o.key === key)!.operation.responses, key).toHaveProperty("400");
    }
  });

  it("describes the webhook", () => {
    expect(doc.webhooks.operationStatus?.post).toMatchObject({
      requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/WebhookEvent" } } } },
    });
  });
});

describe("the OpenAPI checker", () => {
  it("accepts good bodies", () => {
    expectOk(checker.check({ method: "POST", path: "/operations", status: 201, body: operation }));
    expectOk(checker.check({ method: "POST", path: "/operations", status: 200, body: { ...operation, status: "PENDING" } }));
    expectOk(
      checker.check({
        method: "GET",
        path: "/financing/simulate/1200?countryCode=ESP",
        status: 200,
        body: { currency: "EUR", financialOffers: [offer], extra: 1 },
      }),
    );
    expectOk(checker.check({ method: "GET", path: "/financing/op_123", status: 200, body: { currency: "EUR", financialOffers: [] } }));
    expectOk(checker.check({ method: "GET", path: "/operations?page=0&size=20", status: 200, body: page }));
    const { operationNumber: _n, updatedAt: _u, ...byExternalId } = operation;
    expectOk(checker.check({ method: "GET", path: "/operations/by-external-id/BK-2024-001", status: 200, body: byExternalId }));
    expectOk(
      checker.check({
        method: "GET",
        path: "/operations/op_123/status",
        status: 200,
        body: { operationId: "op_123", status: "CONFIRMED", updatedAt: "2024-06-10T08:30:00Z" },
        headers: statusHeaders,
      }),
    );
    expectOk(
      checker.check({
        method: "GET",
        path: "/operations/op_123/status",
        status: 304,
        body: undefined,
        headers: new Headers(statusHeaders),
      }),
    );
    expectOk(checker.check({ method: "GET", path: "/operations/op_123/refund/details", status: 200, body: refundBreakdown }));
    expectOk(
      checker.check({
        method: "POST",
        path: "/operations/op_123/refund",
        status: 200,
        body: { ...operation, status: "REFUNDED", refund: refundBreakdown },
      }),
    );
    expectOk(
      checker.check({ method: "POST", path: "/operations/op_123/cancel", status: 200, body: { ...operation, status: "CANCELLED" } }),
    );
    expectOk(
      checker.check({
        method: "POST",
        path: "/financing",
        status: 200,
        body: { financingStatus: "REQUESTED", paymentUrl: "https://provider.test/checkout/1" },
      }),
    );
    expectOk(
      checker.check({
        method: "POST",
        path: "/financing",
        status: 200,
        body: { financingStatus: "REFUSED", paymentUrl: null, hasAlternativeFinancialOffers: true },
      }),
    );
    expectOk(
      checker.check({
        method: "GET",
        path: "/agencies",
        status: 200,
        body: [{ id: 101, tradeName: "Viajes Aurora", address: "Gran Vía 28", postalCode: "28013", city: "Madrid", countryCode: "ESP" }],
      }),
    );
    expectOk(checker.check({ method: "PUT", path: "/operations/webhook-events/ack", status: 200, body: { acknowledged: true } }));
    expectOk(
      checker.check({
        method: "GET",
        path: "/health",
        status: 200,
        body: { status: "UP", version: "1.8.0", timestamp: "2024-06-10T08:30:00.000Z", partnerCode: "AURORA" },
      }),
    );
  });

  it("accepts each error format where it is documented", () => {
    expectOk(checker.check({ method: "GET", path: "/health", status: 401, body: { error_description: "Invalid API key" } }));
    expectOk(
      checker.check({
        method: "POST",
        path: "/operations/op_123/cancel",
        status: 400,
        body: { errorCode: "OPERATION_NOT_CANCELLABLE", message: "Not cancellable", additionalInfo: { operationStatus: "CONFIRMED" } },
      }),
    );
    expectOk(
      checker.check({
        method: "GET",
        path: "/financing/op_9",
        status: 404,
        body: { errorCode: "OPERATION_NOT_FOUND", message: "Not found" },
      }),
    );
    expectOk(
      checker.check({
        method: "GET",
        path: "/health",
        status: 403,
        body: { error: "Forbidden", message: "Not yours", timestamp: "2024-06-10T08:30:00.000Z" },
      }),
    );
    expectOk(
      checker.check({
        method: "GET",
        path: "/operations",
        status: 429,
        body: { error: "Too Many Requests", message: "Slow down", timestamp: "2024-06-10T08:30:00.000Z" },
        headers: { "retry-after": "2" },
      }),
    );
    expectOk(checker.check({ method: "GET", path: "/health", status: 500, body: { errorCode: "INTERNAL_ERROR", message: "Boom" } }));
  });

  it("rejects bad bodies", () => {
    expectRejected(
      checker.check({ method: "POST", path: "/operations", status: 201, body: { ...operation, status: "DONE" } }),
      "body/status",
    );
    const { financingUrl: _f, ...withoutUrl } = operation;
    expectRejected(checker.check({ method: "POST", path: "/operations", status: 201, body: withoutUrl }), "financingUrl");
    expectRejected(
      checker.check({
        method: "GET",
        path: "/operations/op_1/refund/details",
        status: 200,
        body: { ...refundBreakdown, totalToRefund: { amount: "1176.00", currency: "EUR" } },
      }),
      "body/totalToRefund/amount must be number",
    );
    expectRejected(
      checker.check({ method: "GET", path: "/operations", status: 200, body: { ...page, totalPages: "1" } }),
      "body/totalPages",
    );
    expectRejected(
      checker.check({ method: "POST", path: "/financing", status: 200, body: { financingStatus: "REQUESTED", paymentUrl: null } }),
      "body",
    );
    expectRejected(
      checker.check({ method: "GET", path: "/health", status: 401, body: { errorCode: "UNAUTHORIZED", message: "No key" } }),
      "error_description",
    );
    expectRejected(
      checker.check({
        method: "GET",
        path: "/operations/op_1/status",
        status: 200,
        body: { operationId: "op_1", status: "PENDING", updatedAt: "2024-06-10T08:30:00" },
      }),
      "date-time",
    );
    expectRejected(
      checker.check({ method: "POST", path: "/operations", status: 201, body: { ...operation, totalPrice: { ...money(1), extra: 1 } } }),
      "additional",
    );
  });

  it("checks the documented headers and the absence of a body", () => {
    const body = { operationId: "op_1", status: "PENDING", updatedAt: "2024-06-10T08:30:00Z" };
    const statusAnswer = (headers: Record<string, string>) =>
      checker.check({ method: "GET", path: "/operations/op_1/status", status: 200, body, headers });
    expectRejected(statusAnswer({ "Cache-Control": "max-age=60, must-revalidate" }), "ETag");
    expectRejected(statusAnswer({ ...statusHeaders, ETag: "PENDING-1" }), "header ETag");
    expectRejected(checker.check({ method: "GET", path: "/operations/op_1/status", status: 304, body }), "no body");
    expectRejected(checker.check({ method: "GET", path: "/operations/op_1/status", status: 200, body: undefined }), "none");
    expectRejected(
      checker.check({
        method: "GET",
        path: "/health",
        status: 401,
        body: { error_description: "x" },
        headers: { "content-type": "text/html" },
      }),
      "content-type",
    );
  });

  it("throws for an undocumented path, method or status", () => {
    expect(() => checker.check({ method: "GET", path: "/nope", status: 200, body: {} })).toThrow(/Undocumented path/);
    expect(() => checker.check({ method: "DELETE", path: "/operations/op_1/cancel", status: 200, body: {} })).toThrow(
      /Undocumented operation/,
    );
    expect(() => checker.check({ method: "GET", path: "/health", status: 418, body: {} })).toThrow(/Undocumented status/);
    expect(() => checker.check({ method: "GET", path: "/agencies", status: 404, body: {} })).toThrow(/Undocumented status/);
  });

  it("matches full URLs and records what it checked", () => {
    const local = createOpenApiChecker(doc);
    expectOk(local.check({ method: "GET", path: "http://localhost:3000/sandbox/v1/agencies", status: 200, body: [] }));
    expectOk(local.check({ method: "put", path: "/sandbox/v1/operations/webhook-events/ack", status: 200, body: { acknowledged: true } }));
    expect(local.covered()).toEqual(["GET /agencies 200", "PUT /operations/webhook-events/ack 200"]);
  });

  it("prefers literal segments over templated ones, and falls back to ranges and default", () => {
    const answer = (type: string) => ({ description: type, content: { "application/json": { schema: { type } } } });
    const local = createOpenApiChecker({
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: {
        "/things/{id}": { get: { responses: { "200": answer("string"), "4XX": answer("object") } } },
        "/things/special": { get: { responses: { "200": answer("number"), default: answer("null") } } },
      },
    });
    expectOk(local.check({ method: "GET", path: "/things/special", status: 200, body: 1 }));
    expectOk(local.check({ method: "GET", path: "/things/other", status: 200, body: "x" }));
    expectOk(local.check({ method: "GET", path: "/things/other", status: 404, body: {} }));
    expectRejected(local.check({ method: "GET", path: "/things/special", status: 500, body: {} }), "must be null");
  });
});
