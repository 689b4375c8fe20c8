/**
 * The sandbox standing in for the production API (SANDBOX_PRODUCTION_LIKE, docs/going-live-tls.md):
 * the seeded keys in their `fk_live_` form, no `fk_test_` key, and every link it gives built on its
 * public origin (SANDBOX_PUBLIC_ORIGIN), not on the Host a request names.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE_WIRE_CLIENT } from "@/lib/financing/testing/samples";
import { KEYS, liveKeyOf } from "./accounts";
import { createSandbox, type Sandbox } from "./app";

const PUBLIC_ORIGIN = "https://financing-stand-in.test:8443";
const LIVE_101 = "fk_live_sandbox_agency_101";
const TEST_101 = "fk_test_sandbox_agency_101";

let productionLike: Sandbox;
let sandbox: Sandbox;

beforeAll(() => {
  productionLike = createSandbox({ tickMs: 0, productionLike: true, publicOrigin: PUBLIC_ORIGIN });
  sandbox = createSandbox({ tickMs: 0 });
});

afterAll(async () => {
  await productionLike.close();
  await sandbox.close();
});

function call(target: Sandbox, path: string, key: string, init: { method?: string; body?: unknown; host?: string } = {}) {
  return target.fetch(
    new Request(`http://${init.host ?? "127.0.0.1:4010"}/sandbox${path}`, {
      method: init.method ?? "GET",
      headers: { "X-Service-API-Key": key, "Content-Type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    }),
  );
}

const booking = (externalId: string) => ({
  externalId,
  packageTravel: true,
  travelersNumber: 1,
  totalPrice: 800,
  client: SAMPLE_WIRE_CLIENT,
  services: [{ description: "Trip" }],
});

describe("the production-like sandbox", () => {
  it("takes each seeded key in its fk_live_ form, for the same account", async () => {
    expect(KEYS.map(liveKeyOf)).toEqual(["fk_live_sandbox_agency_101", "fk_live_sandbox_agency_201", "fk_live_sandbox_group_1"]);
    const health = await call(productionLike, "/v1/health", LIVE_101);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "UP", partnerCode: "AURORA" });
  });

  it("refuses a sandbox key, and a live key it does not know, as the production API would (401, its reason)", async () => {
    for (const key of [TEST_101, "fk_live_not_a_key_of_ours"]) {
      const response = await call(productionLike, "/v1/health", key);
      expect(response.status, key).toBe(401);
      expect(await response.json(), key).toMatchObject({ error_description: "Invalid API key" });
    }
  });

  it("builds financingUrl, the hosted pages' links and the OpenAPI server on its public origin, whatever Host is sent", async () => {
    const created = await call(productionLike, "/v1/operations", LIVE_101, {
      method: "POST",
      body: booking("PROD-LIKE-1"),
      host: "attacker.example",
    });
    expect(created.status).toBe(201);
    const operation = (await created.json()) as { id: string; financingUrl: string };
    expect(new URL(operation.financingUrl).origin).toBe(PUBLIC_ORIGIN);

    // The provider's page the customer is sent to, once a plan is chosen.
    const offers = (await (await call(productionLike, `/v1/financing/${operation.id}`, LIVE_101)).json()) as {
      financialOffers: { id: number }[];
    };
    const started = await call(productionLike, "/v1/financing", LIVE_101, {
      method: "POST",
      body: { operationIdentifier: operation.id, financialOfferId: offers.financialOffers[0]!.id },
      host: "attacker.example",
    });
    expect(started.status).toBe(200);
    expect(new URL(((await started.json()) as { paymentUrl: string }).paymentUrl).origin).toBe(PUBLIC_ORIGIN);

    const document = (await (await call(productionLike, "/v1/openapi.json", LIVE_101, { host: "attacker.example" })).json()) as {
      servers: { url: string }[];
    };
    expect(document.servers[0]?.url).toBe(`${PUBLIC_ORIGIN}/sandbox/v1`);
  });

  it("documents the keys it takes: fk_live_ ones, fk_test_ ones refused", async () => {
    const openApi = async (target: Sandbox, key: string) =>
      ((await (await call(target, "/v1/openapi.json", key)).json()) as { info: { description: string } }).info.description;
    expect(await openApi(productionLike, LIVE_101)).toContain("keys start with `fk_live_`; `fk_test_` keys are refused (401)");
    expect(await openApi(sandbox, TEST_101)).toContain("keys start with `fk_test_`; `fk_live_` keys are refused (401)");
  });
});

describe("the sandbox (the default)", () => {
  it("refuses fk_live_ keys and builds its links on the request's origin", async () => {
    expect((await call(sandbox, "/v1/health", LIVE_101)).status).toBe(401);
    const created = await call(sandbox, "/v1/operations", TEST_101, { method: "POST", body: booking("SANDBOX-1"), host: "localhost:3000" });
    expect(created.status).toBe(201);
    expect(new URL(((await created.json()) as { financingUrl: string }).financingUrl).origin).toBe("http://localhost:3000");
  });
});
