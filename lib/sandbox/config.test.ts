import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createTestCa, writePemPair } from "@/e2e/support/test-ca";
import { appPorts, DEFAULT_QA_TOKEN, DEFAULT_RETENTION_DAYS, SandboxConfigError, sandboxConfigFromEnv } from "./config";

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

  it("limits loopback ports to the app's own when served, any when on its own, and to SANDBOX_LOOPBACK_PORTS when set", () => {
    expect(sandboxConfigFromEnv({}, { ownPorts: [3000] }).loopbackPorts).toEqual([3000]);
    expect(sandboxConfigFromEnv({}, { standalone: true, ownPorts: [3000] }).loopbackPorts).toBeUndefined();
    expect(sandboxConfigFromEnv({ SANDBOX_LOOPBACK_PORTS: "3000, 8080" }, { ownPorts: [3000] }).loopbackPorts).toEqual([3000, 8080]);
    expect(sandboxConfigFromEnv({ SANDBOX_LOOPBACK_PORTS: "*" }, { ownPorts: [3000] }).loopbackPorts).toBeUndefined();
    for (const wrong of ["0", "70000", "http", "80:81"]) {
      expect(() => sandboxConfigFromEnv({ SANDBOX_LOOPBACK_PORTS: wrong }), wrong).toThrow(/SANDBOX_LOOPBACK_PORTS/);
    }
    expect(appPorts(3000, "http://localhost:3000")).toEqual([3000]);
    expect(appPorts(3000, "https://checkout.example")).toEqual([3000, 443]);
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
      SANDBOX_PUBLIC_ORIGIN: "https://sandbox.example.com/",
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
    ["SANDBOX_PUBLIC_ORIGIN", "sandbox.example.com"],
    ["SANDBOX_PUBLIC_ORIGIN", "ftp://sandbox.example.com"],
    ["SANDBOX_PUBLIC_ORIGIN", "https://sandbox.example.com/sandbox"],
    ["SANDBOX_PUBLIC_ORIGIN", "https://sandbox.example.com/?x=1"],
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

describe("the production-like mode, TLS and the public origin", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "sandbox-config-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const ca = createTestCa("Sandbox config test CA");
  const server = writePemPair(dir, "server", ca.issue(["localhost", "127.0.0.1"]));
  const other = writePemPair(dir, "other", ca.issue(["other.test"]));
  const standalone = { standalone: true };

  it("are off by default: fk_test_ keys, plain HTTP, links on each request's origin", () => {
    expect(sandboxConfigFromEnv({}, standalone)).toMatchObject({ productionLike: false, tls: undefined, publicOrigin: undefined });
  });

  it("reads the mode, the certificate and key files and the public origin when run on its own", () => {
    const config = sandboxConfigFromEnv(
      {
        SANDBOX_PRODUCTION_LIKE: "true",
        SANDBOX_TLS_CERT_FILE: server.certificateFile,
        SANDBOX_TLS_KEY_FILE: server.keyFile,
        SANDBOX_PUBLIC_ORIGIN: "https://127.0.0.1:4010/",
      },
      standalone,
    );
    expect(config.productionLike).toBe(true);
    expect(config.publicOrigin).toBe("https://127.0.0.1:4010");
    expect(config.tls?.cert).toContain("BEGIN CERTIFICATE");
    expect(config.tls?.key).toContain("PRIVATE KEY");
  });

  it("names a missing half, an unreadable file or a key that is not the certificate's, never echoing a key", () => {
    const problems = (source: Record<string, string>) => {
      try {
        sandboxConfigFromEnv(source, standalone);
      } catch (error) {
        if (!(error instanceof SandboxConfigError)) throw error;
        expect(error.message).not.toContain("PRIVATE KEY");
        return error.problems.map((p) => p.variable);
      }
      throw new Error("expected a refusal");
    };
    expect(problems({ SANDBOX_TLS_CERT_FILE: server.certificateFile })).toEqual(["SANDBOX_TLS_KEY_FILE"]);
    expect(problems({ SANDBOX_TLS_KEY_FILE: server.keyFile })).toEqual(["SANDBOX_TLS_CERT_FILE"]);
    expect(problems({ SANDBOX_TLS_CERT_FILE: server.keyFile, SANDBOX_TLS_KEY_FILE: server.certificateFile })).toEqual([
      "SANDBOX_TLS_CERT_FILE",
      "SANDBOX_TLS_KEY_FILE",
    ]);
    expect(problems({ SANDBOX_TLS_CERT_FILE: server.certificateFile, SANDBOX_TLS_KEY_FILE: other.keyFile })).toEqual([
      "SANDBOX_TLS_KEY_FILE",
    ]);
    const empty = path.join(dir, "empty.pem");
    writeFileSync(empty, "");
    expect(problems({ SANDBOX_TLS_CERT_FILE: empty, SANDBOX_TLS_KEY_FILE: server.keyFile })).toEqual(["SANDBOX_TLS_CERT_FILE"]);
    expect(problems({ SANDBOX_PUBLIC_ORIGIN: "https://stand-in.test/v1" })).toEqual(["SANDBOX_PUBLIC_ORIGIN"]);
    expect(problems({ SANDBOX_PRODUCTION_LIKE: "sure" })).toEqual(["SANDBOX_PRODUCTION_LIKE"]);
  });

  it("refuses the mode and TLS for the sandbox the app serves, which has neither a listener nor keys of its own", () => {
    let thrown: unknown;
    try {
      sandboxConfigFromEnv({
        SANDBOX_PRODUCTION_LIKE: "true",
        SANDBOX_TLS_CERT_FILE: server.certificateFile,
        SANDBOX_TLS_KEY_FILE: server.keyFile,
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SandboxConfigError);
    expect((thrown as SandboxConfigError).problems.map((p) => p.variable)).toEqual([
      "SANDBOX_PRODUCTION_LIKE",
      "SANDBOX_TLS_CERT_FILE",
      "SANDBOX_TLS_KEY_FILE",
    ]);
    // Off, or a public origin (the app's sandbox behind a proxy), are fine there.
    expect(sandboxConfigFromEnv({ SANDBOX_PRODUCTION_LIKE: "false", SANDBOX_PUBLIC_ORIGIN: "https://pay.agency.example" })).toMatchObject({
      productionLike: false,
      publicOrigin: "https://pay.agency.example",
    });
  });
});
