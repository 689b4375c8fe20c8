import { afterEach, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "./app";
import { DEFAULT_QA_TOKEN, publicSandboxWarning } from "./config";

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
    sandbox = createSandbox({ tickMs: 0 });
    expect((await reset({ Authorization: `Bearer ${DEFAULT_QA_TOKEN}` }, "?account=agency_201")).status).toBe(200);
  });
});

describe("publicSandboxWarning", () => {
  it("warns at start when the sandbox is served at a public address, and says the published token is refused", () => {
    expect(publicSandboxWarning(true, DEFAULT_QA_TOKEN)).toBeUndefined();
    expect(publicSandboxWarning(false, DEFAULT_QA_TOKEN)).toMatch(/public address.*tests only.*SANDBOX_QA_TOKEN/s);
    expect(publicSandboxWarning(false, "operator-chosen-qa-token-0123")).not.toContain("SANDBOX_QA_TOKEN");
  });
});
