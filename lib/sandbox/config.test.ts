import { describe, expect, it } from "vitest";
import { DEFAULT_QA_TOKEN, DEFAULT_RETENTION_DAYS, SandboxConfigError, sandboxConfigFromEnv } from "./config";

describe("sandboxConfigFromEnv", () => {
  it("defaults: the published QA token, 30 days, local mode, no allow-list", () => {
    const config = sandboxConfigFromEnv({});
    expect(config).toMatchObject({ qaToken: DEFAULT_QA_TOKEN, retentionDays: DEFAULT_RETENTION_DAYS, localMode: true });
    expect(config.allowedTargets.empty).toBe(true);
    // Loopback deliveries only to the app's own webhook receiver.
    expect(config.loopbackPaths).toEqual(["/api/webhooks/financing/"]);
    // Addresses for browsers on each request's own origin.
    expect(config.publicOrigin).toBeUndefined();
  });

  it("widens the loopback paths with SANDBOX_LOOPBACK_PATHS (`*`: any path)", () => {
    expect(sandboxConfigFromEnv({ SANDBOX_LOOPBACK_PATHS: "/api/webhooks/financing/, /hooks/" }).loopbackPaths).toEqual([
      "/api/webhooks/financing/",
      "/hooks/",
    ]);
    expect(sandboxConfigFromEnv({ SANDBOX_LOOPBACK_PATHS: "*" }).loopbackPaths).toBeUndefined();
    expect(() => sandboxConfigFromEnv({ SANDBOX_LOOPBACK_PATHS: "hooks" })).toThrow(/SANDBOX_LOOPBACK_PATHS/);
  });

  it("reads every variable", () => {
    const config = sandboxConfigFromEnv({
      SANDBOX_QA_TOKEN: "qa_0123456789abcdef",
      SANDBOX_RETENTION_DAYS: "7",
      SANDBOX_LOCAL_MODE: "false",
      SANDBOX_ALLOWED_TARGETS: "10.0.0.0/8,hooks.internal",
      SANDBOX_PUBLIC_URL: "https://Sandbox.Example.com/",
    });
    expect(config).toMatchObject({
      qaToken: "qa_0123456789abcdef",
      retentionDays: 7,
      localMode: false,
      publicOrigin: "https://sandbox.example.com",
    });
    expect(config.allowedTargets.hosts.has("hooks.internal")).toBe(true);
  });

  it.each([
    ["SANDBOX_RETENTION_DAYS", "0"],
    ["SANDBOX_RETENTION_DAYS", "2.5"],
    ["SANDBOX_RETENTION_DAYS", "soon"],
    ["SANDBOX_RETENTION_DAYS", " "],
    ["SANDBOX_RETENTION_DAYS", "1e2"],
    ["SANDBOX_RETENTION_DAYS", "0x10"],
    ["SANDBOX_QA_TOKEN", "short"],
    ["SANDBOX_LOCAL_MODE", "maybe"],
    ["SANDBOX_ALLOWED_TARGETS", "10.0.0.0/99"],
    ["SANDBOX_PUBLIC_URL", "sandbox.example.com"],
    ["SANDBOX_PUBLIC_URL", "ftp://sandbox.example.com"],
    ["SANDBOX_PUBLIC_URL", "https://sandbox.example.com/sandbox"],
    ["SANDBOX_PUBLIC_URL", "https://sandbox.example.com/?x=1"],
  ])("a bad %s (%s) is refused by name, without echoing a token", (variable, value) => {
    let thrown: unknown;
    try {
      sandboxConfigFromEnv({ [variable]: value });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SandboxConfigError);
    expect((thrown as SandboxConfigError).problems.map((p) => p.variable)).toEqual([variable]);
    if (variable === "SANDBOX_QA_TOKEN") expect((thrown as Error).message).not.toContain(value);
  });
});
