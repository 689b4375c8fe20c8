import { randomUUID } from "node:crypto";
import { CURRENT_CHECKOUT_API_VERSION } from "@/lib/checkout/api/versions";
import { expect, test } from "./fixtures";
import { checkoutSessionBody } from "./support/checkout-sessions";

/*
 * The checkout sessions API's Idempotency-Key and version, as a partner's backend meets them over
 * HTTP: a POST retried with its key gives the first answer back, marked as a replay; the key with
 * another body is refused naming the header; every answer, whoever gives it (a route, Next's 404
 * and 405, the proxy's refusals), says its version; a version the API does not have is refused.
 */

const VERSION = "checkout-api-version";

test.describe("Idempotency-Key", () => {
  test("a POST retried with the same key gives the same session, marked as a replay", async ({ checkoutSessions: api }) => {
    const key = randomUUID();
    const body = checkoutSessionBody();
    const first = await api.postWithKey(body, key);
    expect(first.status(), await first.text()).toBe(201);
    expect(first.headers()["idempotent-replayed"]).toBeUndefined();
    const session = (await first.json()) as { id: string };

    const retried = await api.postWithKey(body, key);
    expect(retried.status()).toBe(201);
    expect(retried.headers()["idempotent-replayed"]).toBe("true");
    expect(await retried.json()).toEqual(session);
    expect(retried.headers()[VERSION]).toBe(CURRENT_CHECKOUT_API_VERSION);
    expect(retried.headers()["cache-control"]).toBe("no-store");

    // The same booking sent again without a key is still the same session, as the API always did.
    const unkeyed = await api.post(body);
    expect(unkeyed.status()).toBe(200);
    expect(((await unkeyed.json()) as { id: string }).id).toBe(session.id);
    expect(unkeyed.headers()["idempotent-replayed"]).toBeUndefined();
  });

  test("the same key with another body is refused, naming the header", async ({ checkoutSessions: api }) => {
    const key = randomUUID();
    expect((await api.postWithKey(checkoutSessionBody(), key)).status()).toBe(201);
    const other = await api.postWithKey(checkoutSessionBody(), key);
    expect(other.status()).toBe(422);
    const { error } = (await other.json()) as { error: { code: string; message: string; fields: { field: string }[] } };
    expect(error).toMatchObject({ code: "idempotency_key_reused", fields: [{ field: "Idempotency-Key" }] });
    expect(error.message).toContain("Idempotency-Key");

    const malformed = await api.postWithKey(checkoutSessionBody(), "k".repeat(256));
    expect(malformed.status()).toBe(400);
    expect(((await malformed.json()) as { error: { fields: { field: string }[] } }).error.fields).toEqual([
      { field: "Idempotency-Key", message: expect.stringContaining("255") },
    ]);
  });

  test("the same request sent many times at once is run once: one session opened, the others told so", async ({
    checkoutSessions: api,
  }) => {
    const key = randomUUID();
    const body = checkoutSessionBody();
    const answers = await Promise.all(Array.from({ length: 6 }, () => api.postWithKey(body, key)));
    const seen = await Promise.all(
      answers.map(async (answer) => ({
        status: answer.status(),
        replayed: answer.headers()["idempotent-replayed"] === "true",
        body: (await answer.json()) as { id?: string; error?: { code: string } },
      })),
    );
    const ran = seen.filter((answer) => answer.status === 201 && !answer.replayed);
    expect(ran, JSON.stringify(seen)).toHaveLength(1);
    for (const answer of seen.filter((a) => a !== ran[0])) {
      // Either still in flight when it came, or after: the first one's answer.
      if (answer.status === 409) expect(answer.body.error?.code).toBe("idempotency_key_in_use");
      else expect(answer).toMatchObject({ status: 201, replayed: true, body: { id: ran[0]!.body.id } });
    }
  });
});

test.describe("Checkout-Api-Version", () => {
  test("is on every answer of the API: a session opened, a 401, a 404, a 405 and the proxy's refusals", async ({
    request,
    checkoutSessions: api,
  }) => {
    const answers = {
      created: await api.create(),
      unauthorized: await api.post(checkoutSessionBody(), {}),
      unknownSession: await api.get("cs_doesnotexist000000000000"),
      noSuchAddress: await request.get("/api/checkout-sessions/cs_doesnotexist000000000000/state", { headers: api.authorization }),
      methodNotAllowed: await request.delete("/api/checkout-sessions", { headers: api.authorization }),
      // Refused by the proxy before any route: a path that does not decode, a body declared too large.
      undecodablePath: await request.get("/api/checkout-sessions/%ZZ", { headers: api.authorization }),
      tooLarge: await request.post("/api/checkout-sessions", {
        headers: { ...api.authorization, "Content-Type": "application/json" },
        data: JSON.stringify({ padding: "x".repeat(70 * 1024) }),
      }),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([name, answer]) => [name, answer.status()]))).toEqual({
      created: 201,
      unauthorized: 401,
      unknownSession: 404,
      noSuchAddress: 404,
      methodNotAllowed: 405,
      undecodablePath: 400,
      tooLarge: 413,
    });
    for (const [name, answer] of Object.entries(answers)) expect(answer.headers()[VERSION], name).toBe(CURRENT_CHECKOUT_API_VERSION);
    // Not an answer of this API: not said there.
    expect((await request.get("/api/health")).headers()[VERSION]).toBeUndefined();
  });

  test("may be pinned; a version the API does not have is a 400 naming the header", async ({ checkoutSessions: api }) => {
    const pinned = await api.post(checkoutSessionBody(), { ...api.authorization, "Checkout-Api-Version": CURRENT_CHECKOUT_API_VERSION });
    expect(pinned.status()).toBe(201);
    expect(pinned.headers()[VERSION]).toBe(CURRENT_CHECKOUT_API_VERSION);
    const { id } = (await pinned.json()) as { id: string };

    for (const refused of [
      await api.post(checkoutSessionBody(), { ...api.authorization, "Checkout-Api-Version": "2019-01-01" }),
      await api.get(id, { "Checkout-Api-Version": "2019-01-01" }),
      // Before anything else: no secret either.
      await api.post(checkoutSessionBody(), { "Checkout-Api-Version": "latest" }),
    ]) {
      expect(refused.status()).toBe(400);
      expect(refused.headers()[VERSION]).toBe(CURRENT_CHECKOUT_API_VERSION);
      expect(((await refused.json()) as { error: unknown }).error).toEqual({
        code: "unsupported_api_version",
        message: expect.stringContaining("Checkout-Api-Version"),
        fields: [{ field: "Checkout-Api-Version", message: `must be one of: ${CURRENT_CHECKOUT_API_VERSION}` }],
      });
    }
  });
});
