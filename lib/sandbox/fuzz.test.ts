/**
 * The sandbox's surfaces (partner API, hosted pages, control API) under generated hostile input,
 * in-process through its Web handler: never a 5xx, always the partner API's error formats on the
 * API, and nothing changes (operations, clock, faults). The same generators feed `npm run fuzz`.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_SURFACES, type FuzzRequest, type FuzzTarget } from "@/lib/testing/fuzz/request";
import { surfaceArbitraries } from "@/lib/testing/fuzz/surfaces";
import { createSandbox, type Sandbox } from "./app";
import { SAMPLE_WIRE_CLIENT } from "@/lib/financing/testing/samples";

const ORIGIN = "http://sandbox.test";
const KEY = "fk_test_sandbox_agency_101";
const RUNS = 150;

let sandbox: Sandbox;
const target: FuzzTarget = {
  origin: ORIGIN,
  partnerSecret: "unused",
  webhookToken: "unused",
  sandboxKey: KEY,
  sessionId: "cs_unused_0000000000",
  actionIds: [],
};

function call(request: FuzzRequest): Promise<Response> {
  return sandbox.fetch(new Request(`${ORIGIN}${request.path}`, { method: request.method, headers: request.headers, body: request.body }));
}

async function state(): Promise<unknown> {
  const headers = { "X-Service-API-Key": KEY };
  const read = async (path: string) => (await sandbox.fetch(new Request(`${ORIGIN}${path}`, { headers }))).json();
  const clock = (await read("/sandbox/_control/clock")) as { offsetSeconds: number };
  return {
    operations: await read("/sandbox/v1/operations?size=100"),
    offset: clock.offsetSeconds,
    faults: await read("/sandbox/_control/faults"),
  };
}

beforeAll(async () => {
  sandbox = createSandbox({ tickMs: 0 });
  // One real operation, so that "nothing changes" covers an existing one too.
  const created = await sandbox.fetch(
    new Request(`${ORIGIN}/sandbox/v1/operations`, {
      method: "POST",
      headers: { "X-Service-API-Key": KEY, "Content-Type": "application/json" },
      body: JSON.stringify({
        externalId: "FUZZ-SEED",
        packageTravel: true,
        travelersNumber: 1,
        totalPrice: 800,
        client: SAMPLE_WIRE_CLIENT,
        services: [{ description: "Trip" }],
      }),
    }),
  );
  expect(created.status).toBe(201);
});

afterAll(async () => {
  await sandbox.close();
});

describe("the sandbox under hostile input", () => {
  it.each(SANDBOX_SURFACES)("%s: never a 5xx, and nothing changes", async (surface) => {
    const before = await state();
    await fc.assert(
      fc.asyncProperty(surfaceArbitraries(target)[surface], async (request) => {
        const response = await call(request);
        const text = await response.text();
        expect(response.status, `${request.method} ${request.path}`).toBeLessThan(500);
        if (response.status >= 400 && request.path.startsWith("/sandbox/v1/")) {
          // One of the partner API's three error formats.
          const body = JSON.parse(text) as Record<string, unknown>;
          expect(typeof body.errorCode === "string" || typeof body.error === "string" || typeof body.error_description === "string").toBe(
            true,
          );
        }
      }),
      { numRuns: RUNS, seed: 12 },
    );
    expect(await state()).toEqual(before);
  });

  it("answers the known causes of a 5xx with the partner API's VALIDATION_ERROR naming the field", async () => {
    const key = { "X-Service-API-Key": KEY };
    const huge = await call({
      surface: "sandbox-api",
      method: "GET",
      path: "/sandbox/v1/financing/simulate/9007199254740994",
      headers: key,
    });
    expect(huge.status).toBe(400);
    expect(await huge.json()).toMatchObject({ errorCode: "VALIDATION_ERROR", additionalInfo: { fields: [{ field: "totalPrice" }] } });

    for (const body of ["null", "[]", "1", '"x"']) {
      const response = await call({
        surface: "sandbox-api",
        method: "POST",
        path: "/sandbox/v1/operations",
        headers: { ...key, "Content-Type": "application/json" },
        body,
      });
      expect(response.status, body).toBe(400);
      expect(await response.json()).toMatchObject({ errorCode: "VALIDATION_ERROR", additionalInfo: { fields: [{ field: "(body)" }] } });
    }

    const nul = await call({
      surface: "sandbox-api",
      method: "PUT",
      path: "/sandbox/v1/operations/webhook-events/ack",
      headers: { ...key, "Content-Type": "application/json" },
      body: JSON.stringify({ operationIdentifier: "op\u0000", operationStatus: "CONFIRMED", eventId: 1 }),
    });
    expect(nul.status).toBe(400);
    expect(await nul.json()).toMatchObject({
      additionalInfo: { fields: [{ field: "operationIdentifier", message: "must not contain control characters" }] },
    });
  });

  it("refuses a body past its limit before reading it, by its declared length", async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(16 * 1024).fill(32));
      },
    });
    const response = await sandbox.fetch(
      new Request(`${ORIGIN}/sandbox/v1/operations`, {
        method: "POST",
        headers: { "X-Service-API-Key": KEY, "Content-Type": "application/json" },
        body: endless,
        duplex: "half",
      } as RequestInit),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: "Payload Too Large" });
    // 64 KB in 16 KB chunks: read no further than just past the limit.
    expect(pulled).toBeLessThanOrEqual(8);
  });
});
