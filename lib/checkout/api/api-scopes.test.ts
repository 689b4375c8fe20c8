/**
 * What an API secret's scopes let it do on the checkout sessions API: each scope its own
 * operations and no other (403 `insufficient_scope` naming the scope it lacks, in the API's error
 * format and as its document says), `all` (a secret from before scopes) every operation, and a
 * refusal that claims no Idempotency-Key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/app-error";
import type { Database } from "@/lib/db";
import { DEMO_PARTNER_ID } from "@/lib/demo/seed";
import { errorResponse } from "@/lib/http/error-response";
import { createApiSecret } from "@/lib/partners/api-secrets";
import { API_SCOPES, type ApiScope } from "@/lib/vocabulary/api-scopes";
import type { CheckoutContext } from "../session/flow";
import { documented } from "../testing/api-document";
import { DEMO_SECRET, sessionInput, testContext, unlimitedThrottles } from "../testing/context";
import { answerCheckoutApi } from "./api-route";
import { handleListEvents } from "./events-api";
import { ROUTE_SCOPES, type CheckoutApiRoute } from "./route-scopes";
import { handleCancelSession, handleEraseSession, handleGetRefund, handleRefundSession } from "./session-actions";
import { handleListSessions } from "./session-list";
import { handleCreateSession, handleGetSession, type SessionsApiThrottles } from "./sessions-api";

let database: Database;
let ctx: CheckoutContext;
const context = () => Promise.resolve(ctx);
/** A session id that is no session: a call its secret may make answers 404, one it may not 403 first. */
const NO_SESSION = "cs_NoSuchSession0000000";

beforeAll(async () => {
  // No partner API call is made: every session-level call is on a session that does not exist.
  ({ ctx, database } = await testContext("http://127.0.0.1:9/v1"));
});
afterAll(async () => {
  await database?.close();
});

const throttles = unlimitedThrottles;

function request(method: "GET" | "POST", path: string, secret: string, body?: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`http://localhost/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** An operation on a session, called on NO_SESSION: a 404 when the secret may call it. */
function onNoSession(
  method: "GET" | "POST",
  suffix: string,
  handler: (request: Request, id: string, throttles: SessionsApiThrottles, context: () => Promise<CheckoutContext>) => Promise<unknown>,
) {
  const path = `/checkout-sessions/${NO_SESSION}${suffix}`;
  return {
    call: (secret: string) =>
      documented(
        method,
        path,
        handler(request(method, path, secret, method === "POST" ? {} : undefined), NO_SESSION, throttles(), context),
      ),
    allowed: 404,
  };
}

/** Every operation, called with `secret`, and what it answers when the secret may call it. */
const OPERATIONS: Record<CheckoutApiRoute, { call: (secret: string) => Promise<unknown>; allowed: number }> = {
  "POST /api/checkout-sessions": {
    call: (s) =>
      documented(
        "POST",
        "/checkout-sessions",
        handleCreateSession(request("POST", "/checkout-sessions", s, sessionInput()), throttles(), context),
      ),
    allowed: 201,
  },
  "GET /api/checkout-sessions": {
    call: (s) => documented("GET", "/checkout-sessions", handleListSessions(request("GET", "/checkout-sessions", s), throttles(), context)),
    allowed: 200,
  },
  "GET /api/checkout-sessions/[id]": onNoSession("GET", "", handleGetSession),
  "POST /api/checkout-sessions/[id]/cancel": onNoSession("POST", "/cancel", handleCancelSession),
  "GET /api/checkout-sessions/[id]/refund": onNoSession("GET", "/refund", handleGetRefund),
  "POST /api/checkout-sessions/[id]/refund": onNoSession("POST", "/refund", handleRefundSession),
  "POST /api/checkout-sessions/[id]/erase": onNoSession("POST", "/erase", handleEraseSession),
  "GET /api/events": {
    call: (s) => documented("GET", "/events", handleListEvents(request("GET", "/events", s), throttles(), context)),
    allowed: 200,
  },
};

/** The status and error an operation answered (as the route answers it), success or refusal. */
async function outcome(call: Promise<unknown>): Promise<{ status: number; code?: string; requiredScope?: string }> {
  try {
    const answered = (await call) as { status?: number } | undefined;
    return { status: answered && typeof answered.status === "number" ? answered.status : 200 };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const body = (await errorResponse(error).json()) as { error: { code: string; requiredScope?: string } };
    return {
      status: error.status,
      code: body.error.code,
      ...(body.error.requiredScope ? { requiredScope: body.error.requiredScope } : {}),
    };
  }
}

async function secretWith(scopes: readonly string[], name: string): Promise<string> {
  const made = await createApiSecret(
    ctx.db,
    DEMO_PARTNER_ID,
    name,
    scopes,
    { kind: "system", id: null, name: null },
    "sandbox",
    () => true,
  );
  if (!made.ok) throw new Error(made.reason);
  return made.secret;
}

describe("an API secret's scopes", () => {
  it.each(API_SCOPES.map((scope) => [scope] as const))(
    "%s: allows its own operations, and refuses every other with 403 insufficient_scope naming the scope needed",
    async (scope: ApiScope) => {
      const secret = await secretWith([scope], `Only ${scope}`);
      for (const [route, operation] of Object.entries(OPERATIONS) as [CheckoutApiRoute, (typeof OPERATIONS)[CheckoutApiRoute]][]) {
        const needed = ROUTE_SCOPES[route];
        const answered = await outcome(operation.call(secret));
        if (needed === scope) expect(answered.status, route).toBe(operation.allowed);
        else expect(answered, route).toEqual({ status: 403, code: "insufficient_scope", requiredScope: needed });
      }
    },
  );

  it("`all` (a secret from before scopes, as the demo's) allows every operation", async () => {
    for (const [route, operation] of Object.entries(OPERATIONS) as [CheckoutApiRoute, (typeof OPERATIONS)[CheckoutApiRoute]][]) {
      expect((await outcome(operation.call(DEMO_SECRET))).status, route).toBe(operation.allowed);
    }
  });

  it("a refusal for a scope claims no Idempotency-Key: the same key with a secret that may, runs", async () => {
    const readOnly = await secretWith(["sessions:read"], "Reader");
    const opener = await secretWith(["sessions:open"], "Opener");
    const limits = throttles();
    const deps = { context, throttles: limits };
    const input = sessionInput();
    let runs = 0;
    const create = (secret: string) =>
      answerCheckoutApi(
        request("POST", "/checkout-sessions", secret, input, { "Idempotency-Key": "scope-test-key-1" }),
        { kind: "create", scope: ROUTE_SCOPES["POST /api/checkout-sessions"] },
        async (r) => {
          runs += 1;
          const { status, body } = await handleCreateSession(r, limits, context);
          return Response.json(body, { status });
        },
        deps,
      );
    const refused = await create(readOnly);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: { code: "insufficient_scope", message: expect.stringContaining("sessions:open"), requiredScope: "sessions:open" },
    });
    expect(runs).toBe(0);
    const opened = await create(opener);
    expect(opened.status).toBe(201);
    expect(opened.headers.get("Idempotent-Replayed")).toBeNull();
    expect(runs).toBe(1);
  });
});
