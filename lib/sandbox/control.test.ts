import { afterEach, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "./app";
import { SOCKET_ADDRESS_HEADER, socketStampValue } from "@/lib/security/network/client-ip";
import { DEFAULT_QA_TOKEN, publicSandboxWarning } from "./config";
import { appClientAddress, nodeServerClientAddress } from "./control";

const ORIGIN = "http://sandbox.test";
let sandbox: Sandbox | undefined;

afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

function reset(headers: Record<string, string>, query = ""): Promise<Response> {
  return sandbox!.fetch(new Request(`${ORIGIN}/sandbox/_control/reset${query}`, { method: "POST", headers }));
}

describe("the control API's QA token on a publicly reachable sandbox", () => {
  it("refuses the published token, so it cannot reset another account; the operator's own token and each account's key still work", async () => {
    sandbox = createSandbox({ tickMs: 0, publiclyReachable: true });
    const refused = await reset({ Authorization: `Bearer ${DEFAULT_QA_TOKEN}` }, "?account=agency_201");
    expect(refused.status).toBe(401);
    expect(JSON.stringify(await refused.json())).toContain("SANDBOX_QA_TOKEN");
    // A key acts on its own account only, as before.
    expect((await reset({ "X-Service-API-Key": "fk_test_sandbox_agency_101" })).status).toBe(200);
    await sandbox.close();

    sandbox = createSandbox({ tickMs: 0, publiclyReachable: true, qaToken: "operator-chosen-qa-token-0123" });
    expect((await reset({ Authorization: "Bearer operator-chosen-qa-token-0123" }, "?account=agency_201")).status).toBe(200);
  });

  it("keeps the published token working on this machine only", async () => {
    sandbox = createSandbox({ tickMs: 0, clientAddress: () => "127.0.0.1" });
    expect((await reset({ Authorization: `Bearer ${DEFAULT_QA_TOKEN}` }, "?account=agency_201")).status).toBe(200);
  });
});

describe("the published QA token on a sandbox reached from another machine", () => {
  /** A request as the app's server hands it on: its socket's address stamped, with whatever the client wrote. */
  const fromSocket = (address: string, headers: Record<string, string> = {}) => ({
    ...headers,
    [SOCKET_ADDRESS_HEADER]: socketStampValue(address),
  });
  const published = { Authorization: `Bearer ${DEFAULT_QA_TOKEN}` };
  const clockOf = async (account: string) =>
    (await (
      await sandbox!.fetch(
        new Request(`${ORIGIN}/sandbox/_control/clock`, { headers: { "X-Service-API-Key": `fk_test_sandbox_${account}` } }),
      )
    ).json()) as {
      offsetSeconds: number;
    };

  it("cannot reset or drive another account, however the client dresses up its address; its own key still acts on its own", async () => {
    // Served by the app on a loopback APP_URL, but listening on every interface: an attacker on the network.
    sandbox = createSandbox({ tickMs: 0, clientAddress: appClientAddress(0) });
    const advance = (headers: Record<string, string>) =>
      sandbox!.fetch(
        new Request(`${ORIGIN}/sandbox/_control/clock/advance?account=agency_201`, {
          method: "POST",
          headers: { ...headers, "Content-Type": "application/json" },
          body: JSON.stringify({ seconds: 3600 }),
        }),
      );
    const before = await clockOf("agency_201");
    for (const headers of [
      fromSocket("192.0.2.44", published),
      fromSocket("2001:db8::44", published),
      // A forged loopback address: X-Forwarded-For without a trusted proxy, or the internal header unstamped.
      fromSocket("192.0.2.44", { ...published, "X-Forwarded-For": "127.0.0.1" }),
      { ...published, [SOCKET_ADDRESS_HEADER]: "127.0.0.1", "X-Forwarded-For": "127.0.0.1" },
    ]) {
      const refused = await reset(headers, "?account=agency_201");
      expect(refused.status).toBe(401);
      expect(JSON.stringify(await refused.json())).toContain("SANDBOX_QA_TOKEN");
      expect((await advance(headers)).status).toBe(401);
    }
    expect((await clockOf("agency_201")).offsetSeconds).toBe(before.offsetSeconds);
    // Its own account, with its key: as before.
    expect((await reset(fromSocket("192.0.2.44", { "X-Service-API-Key": "fk_test_sandbox_agency_101" }))).status).toBe(200);
    // On this machine the published token still acts on any account; the operator's own token from anywhere.
    expect((await advance(fromSocket("127.0.0.1", published))).status).toBe(200);
    expect((await clockOf("agency_201")).offsetSeconds).toBe(before.offsetSeconds + 3600);
    await sandbox.close();
    sandbox = createSandbox({ tickMs: 0, clientAddress: appClientAddress(0), qaToken: "operator-chosen-qa-token-0123" });
    expect(
      (await reset(fromSocket("192.0.2.44", { Authorization: "Bearer operator-chosen-qa-token-0123" }), "?account=agency_201")).status,
    ).toBe(200);
  });

  it("behind the configured proxies, judges the address they appended", async () => {
    sandbox = createSandbox({ tickMs: 0, clientAddress: appClientAddress(1) });
    expect((await reset(fromSocket("127.0.0.1", { ...published, "X-Forwarded-For": "192.0.2.44" }), "?account=agency_201")).status).toBe(
      401,
    );
    expect((await reset(fromSocket("127.0.0.1", { ...published, "X-Forwarded-For": "127.0.0.1" }), "?account=agency_201")).status).toBe(
      200,
    );
  });

  it("run on its own, judges the socket's address (an unknown one is not this machine)", () => {
    const incoming = (remoteAddress: string | undefined) => ({ incoming: { socket: { remoteAddress } } });
    const request = new Request(`${ORIGIN}/sandbox/_control/reset`);
    expect(nodeServerClientAddress(request, incoming("192.0.2.44"))).toBe("192.0.2.44");
    expect(nodeServerClientAddress(request, incoming("::1"))).toBe("::1");
    expect(nodeServerClientAddress(request, undefined)).toBeUndefined();
  });
});

describe("publicSandboxWarning", () => {
  it("warns at start when the sandbox is served at a public address, and says the published token is refused", () => {
    expect(publicSandboxWarning(true, DEFAULT_QA_TOKEN)).toBeUndefined();
    expect(publicSandboxWarning(false, DEFAULT_QA_TOKEN)).toMatch(/public address.*tests only.*SANDBOX_QA_TOKEN/s);
    expect(publicSandboxWarning(false, "operator-chosen-qa-token-0123")).not.toContain("SANDBOX_QA_TOKEN");
  });
});
