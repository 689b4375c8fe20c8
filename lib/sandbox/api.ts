import { Hono, type Context } from "hono";
import {
  ackRequestSchema,
  cancelRequestSchema,
  countryCodeSchema,
  createOperationRequestSchema,
  listOperationsQuerySchema,
  refundRequestSchema,
  startFinancingRequestSchema,
} from "@/lib/financing/contract";
import { AGENCIES } from "./accounts";
import type { SandboxEngine } from "./engine";
import type { Caller, SandboxOperation } from "./operation";
import { businessError, generalError, parseOrThrow, validationError, type FieldProblem } from "./errors";
import { bodyProblemMessage, isJsonObject, readJsonBody } from "@/lib/http/body";
import { ifNoneMatches } from "@/lib/http/etag";
import { agencyHasProviders, computeOffers, toWireOffer } from "./offers";
import { buildOpenApiDocument } from "./openapi";

/** The partner API's header names, as the spec writes them. */
export const API_KEY_HEADER = "X-Service-API-Key";
export const AGENCY_HEADER = "X-Service-Agency";
export const API_VERSION = "1.8.0";

type Env = { Variables: { caller: Caller } };

/** Every endpoint of the partner API (docs/partner-api.md), mounted by `app.ts` under `/sandbox/v1`. */
export function partnerApi(engine: SandboxEngine) {
  const api = new Hono<Env>();

  // The OpenAPI document is public: it is documentation, not data.
  api.get("/openapi.json", (c) =>
    c.json(buildOpenApiDocument({ serverUrl: `${origin(c, engine)}/sandbox/v1`, productionLike: engine.productionLike })),
  );

  api.use("*", async (c, next) => {
    const exempt = c.req.method === "GET" && c.req.path.endsWith("/v1/agencies");
    c.set(
      "caller",
      engine.authenticate(c.req.header(API_KEY_HEADER) ?? null, c.req.header(AGENCY_HEADER) ?? null, { agencyExempt: exempt }),
    );
    await next();
  });

  api.get("/health", async (c) => {
    const caller = c.get("caller");
    return c.json({
      status: "UP",
      version: API_VERSION,
      timestamp: new Date(await engine.now(caller.account)).toISOString(),
      partnerCode: caller.key.partnerCode,
    });
  });

  api.get("/financing/simulate/:totalPrice", (c) => {
    const caller = c.get("caller");
    const raw = c.req.param("totalPrice");
    const amount = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : Number.NaN;
    const problems: FieldProblem[] = [];
    if (!(amount > 0)) problems.push({ field: "totalPrice", message: "must be a number greater than zero" });
    // In cents it must still be an exact whole number: 9007199254740994 is not an amount anyone means.
    else if (!Number.isSafeInteger(Math.round(amount * 100))) problems.push({ field: "totalPrice", message: "is too large" });
    const countryCode = c.req.query("countryCode") ?? "ESP";
    if (!countryCodeSchema.safeParse(countryCode).success) {
      problems.push({ field: "countryCode", message: "must be a 3-letter ISO 3166-1 alpha-3 code" });
    }
    if (problems.length > 0) throw validationError(problems);
    if (!agencyHasProviders(caller.agencyId)) {
      throw businessError(422, "NO_FINANCIAL_COMPANIES_CONFIGURED", `No financial companies are configured for agency ${caller.agencyId}`);
    }
    const offers = computeOffers(caller.agencyId, countryCode, Math.round(amount * 100));
    return c.json({ currency: "EUR", financialOffers: offers.map(toWireOffer) });
  });

  api.post("/operations", async (c) => {
    const body = parseOrThrow(createOperationRequestSchema, await readJson(c));
    const { operation, created } = await engine.createOperation(c.get("caller"), body);
    return c.json(wireOperation(operation, origin(c, engine)), created ? 201 : 200);
  });

  api.get("/operations", async (c) => {
    const q = c.req.query();
    const problems: FieldProblem[] = [];
    const integer = (name: string, fallback: number) => {
      const value = q[name];
      if (value === undefined || value === "") return fallback;
      if (!/^\d+$/.test(value)) problems.push({ field: name, message: "must be a whole number" });
      return Number(value);
    };
    const page = integer("page", 0);
    const size = integer("size", 20);
    if (problems.length > 0) throw validationError(problems);
    const query = parseOrThrow(listOperationsQuerySchema, {
      page,
      size,
      status: q.status || undefined,
      from: q.from || undefined,
      to: q.to || undefined,
    });
    const result = await engine.listOperations(c.get("caller"), { ...query, page, size });
    const totalPages = Math.ceil(result.totalElements / size);
    const sort = { empty: false, sorted: true, unsorted: false };
    return c.json({
      content: result.content.map((op) => wireOperation(op, origin(c, engine))),
      pageable: { pageNumber: page, pageSize: size, offset: page * size, paged: true, unpaged: false, sort },
      number: page,
      size,
      numberOfElements: result.content.length,
      totalElements: result.totalElements,
      totalPages,
      first: page === 0,
      last: page >= totalPages - 1,
      empty: result.content.length === 0,
      sort,
    });
  });

  api.get("/operations/by-external-id/:externalId", async (c) => {
    const operation = await engine.getOperationByExternalId(c.get("caller"), c.req.param("externalId"));
    const { operationNumber: _n, updatedAt: _u, ...body } = wireOperation(operation, origin(c, engine));
    return c.json(body);
  });

  api.get("/financing/:operationIdentifier", async (c) => {
    const operation = await engine.getOperation(c.get("caller"), c.req.param("operationIdentifier"));
    return c.json({ currency: operation.currency, financialOffers: engine.offersFor(operation).map(toWireOffer) });
  });

  api.post("/financing", async (c) => {
    const body = parseOrThrow(startFinancingRequestSchema, await readJson(c));
    const operation = await engine.getOperation(c.get("caller"), body.operationIdentifier);
    return c.json((await engine.startFinancing(operation.id, body.financialOfferId, origin(c, engine))).outcome);
  });

  api.get("/operations/:id/status", async (c) => {
    const operation = await engine.getOperation(c.get("caller"), c.req.param("id"));
    const etag = etagOf(operation);
    const headers = { ETag: etag, "Cache-Control": "max-age=60, must-revalidate" };
    if (ifNoneMatches(c.req.header("If-None-Match"), etag)) return c.body(null, 304, headers);
    return c.json(
      { operationId: operation.id, status: operation.status, updatedAt: new Date(operation.updatedAt).toISOString() },
      200,
      headers,
    );
  });

  api.post("/operations/:id/cancel", async (c) => {
    const { id } = await engine.getOperation(c.get("caller"), c.req.param("id"));
    const body = parseOrThrow(cancelRequestSchema, await readJson(c, {}));
    return c.json(wireOperation(await engine.cancel(id, body.reason), origin(c, engine)));
  });

  api.get("/operations/:id/refund/details", async (c) => {
    const operation = await engine.getOperation(c.get("caller"), c.req.param("id"));
    return c.json(wireRefund(engine.refundBreakdown(operation), operation.currency));
  });

  api.post("/operations/:id/refund", async (c) => {
    const { id } = await engine.getOperation(c.get("caller"), c.req.param("id"));
    const body = parseOrThrow(refundRequestSchema, await readJson(c, {}));
    const cents = (amount: number | undefined) => Math.round((amount ?? 0) * 100);
    const { operation, breakdown } = await engine.refund(
      id,
      { agencyCents: cents(body.agencyCancellationFee), providerCents: cents(body.providerCancellationFee) },
      body.reason,
    );
    return c.json({ ...wireOperation(operation, origin(c, engine)), refund: wireRefund(breakdown, operation.currency) });
  });

  api.get("/agencies", async (c) => {
    const caller = c.get("caller");
    if (caller.key.kind !== "group") {
      throw generalError(403, "Forbidden", "GET /agencies is for management group keys only", await engine.now(caller.account));
    }
    const agencies = AGENCIES.filter((a) => a.active && caller.key.agencyIds.includes(a.id))
      .sort((a, b) => a.id - b.id)
      .map(({ active: _active, ...agency }) => agency);
    return c.json(agencies);
  });

  api.put("/operations/webhook-events/ack", async (c) => {
    const body = parseOrThrow(ackRequestSchema, await readJson(c));
    await engine.acknowledge(c.get("caller"), body);
    return c.json({ acknowledged: true });
  });

  return api;
}

// ---------------------------------------------------------------------------------------------

/**
 * The origin of the addresses a browser is given: the configured public one, else the request's.
 * Never only the request's when one is configured: the app calls its own sandbox on
 * `localhost:$PORT`, an address that leads a customer's phone or a CI browser to itself.
 */
export function origin(c: Context, engine: SandboxEngine): string {
  return engine.publicOrigin ?? new URL(c.req.url).origin;
}

export function financingUrl(operation: SandboxOperation, base: string): string {
  const url = new URL(`${base}/sandbox/pay/financing`);
  url.searchParams.set("operation", operation.id);
  url.searchParams.set("token", operation.token);
  return url.toString();
}

export function wireOperation(operation: SandboxOperation, base: string) {
  return {
    id: operation.id,
    operationNumber: operation.operationNumber,
    externalId: operation.externalId,
    status: operation.status,
    totalPrice: { amount: operation.totalPriceCents / 100, currency: operation.currency },
    // The reserve carries the management fee on top of the price, so it can exceed totalPrice.
    totalReserve: { amount: (operation.totalPriceCents + operation.managementFeeCents) / 100, currency: operation.currency },
    financingUrl: financingUrl(operation, base),
    updatedAt: new Date(operation.updatedAt).toISOString(),
  };
}

function wireRefund(breakdown: ReturnType<SandboxEngine["refundBreakdown"]>, currency: string) {
  const m = (cents: number) => ({ amount: cents / 100, currency });
  return {
    operationId: breakdown.operationId,
    totalReserve: m(breakdown.totalReserveCents),
    managementFees: m(breakdown.managementFeesCents),
    fliinowCancellationFee: m(breakdown.cancellationFeeCents),
    fliinowCancellationFeePercentage: breakdown.cancellationFeePercentage,
    totalToRefund: m(breakdown.totalToRefundCents),
  };
}

/** `"STATUS-epochSeconds"`, quotes included, as the spec describes. */
export function etagOf(operation: SandboxOperation): string {
  return `"${operation.status}-${Math.floor(operation.updatedAt / 1000)}"`;
}

/** The most a JSON body of the API may weigh; refused before it is read any further. */
export const SANDBOX_BODY_MAX_BYTES = 64 * 1024;

/** The request's JSON body, an object; `fallback` when the body is optional and absent. */
async function readJson(c: Context, fallback?: unknown): Promise<unknown> {
  const body = await readJsonBody(c.req.raw, SANDBOX_BODY_MAX_BYTES);
  if (!body.ok) {
    if (body.problem === "empty" && fallback !== undefined) return fallback;
    if (body.problem === "too_large") throw generalError(413, "Payload Too Large", `The body ${bodyProblemMessage(body)}`, Date.now());
    throw validationError([{ field: "(body)", message: body.problem === "empty" ? "a JSON body is required" : bodyProblemMessage(body) }]);
  }
  if (!isJsonObject(body.value)) throw validationError([{ field: "(body)", message: "must be a JSON object" }]);
  return body.value;
}
