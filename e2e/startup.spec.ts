import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { SERVER_ARGS } from "./support/instances";
import { SANDBOX_AGENCY_KEY } from "./support/sandbox";

/**
 * The built server refuses to start on a bad configuration, naming the variable and never the key.
 * Runs the production build the web server made, on ports of its own.
 */
function startServer(env: Record<string, string>, port: number): Promise<{ code: number | null; output: string }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "travel-checkout-startup-"));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, SERVER_ARGS, {
      // The test's own DATA_DIR, when it names one, over the fresh folder.
      env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    // A server that starts instead of refusing would run forever: stop it and report it.
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      rmSync(dataDir, { recursive: true, force: true });
      resolve({ code, output });
    });
  });
}

test.describe("configuration refusals at start", () => {
  test.describe.configure({ timeout: 60_000 });

  test("a production key with the sandbox base URL", async () => {
    const { code, output } = await startServer({ FINANCING_API_KEY: "fk_live_topsecret" }, 3191);
    expect(code).toBe(1);
    expect(output).toContain("FINANCING_API_KEY: a production key");
    expect(output).not.toContain("topsecret");
  });

  test("a sandbox key with a production base URL", async () => {
    const { code, output } = await startServer(
      { FINANCING_API_BASE_URL: "https://api.financer.example/v1", FINANCING_API_KEY: "fk_test_abc" },
      3192,
    );
    expect(code).toBe(1);
    expect(output).toContain("FINANCING_API_KEY: a sandbox key");
  });

  test("a key of neither prefix", async () => {
    const { code, output } = await startServer({ FINANCING_API_KEY: "pk_something" }, 3193);
    expect(code).toBe(1);
    expect(output).toContain("FINANCING_API_KEY: is not a partner API key");
    expect(output).not.toContain("pk_something");
  });

  test("a malformed timeout", async () => {
    const { code, output } = await startServer({ FINANCING_TIMEOUT_MS: "fast" }, 3194);
    expect(code).toBe(1);
    expect(output).toContain("FINANCING_TIMEOUT_MS");
  });

  test("a bad sandbox setting, while the sandbox is served", async () => {
    const { code, output } = await startServer({ SANDBOX_RETENTION_DAYS: "0", SANDBOX_QA_TOKEN: "qa-short-tok" }, 3196);
    expect(code).toBe(1);
    expect(output).toContain("SANDBOX_RETENTION_DAYS: must be at least 1");
    expect(output).toContain("SANDBOX_QA_TOKEN: must be 16 to 256 printable characters");
    expect(output).not.toContain("qa-short-tok");
  });
});

test.describe("a data folder it cannot use", () => {
  test.describe.configure({ timeout: 60_000 });

  test("DATA_DIR naming a file: exits naming DATA_DIR, the folder and the cause", async () => {
    const parent = mkdtempSync(path.join(os.tmpdir(), "travel-checkout-datadir-"));
    try {
      const file = path.join(parent, "not-a-folder");
      writeFileSync(file, "");
      const { code, output } = await startServer({ DATA_DIR: file }, 3197);
      expect(code).toBe(1);
      expect(output).toContain(
        `DATA_DIR: the embedded database's folder ${path.join(file, "pglite")} cannot be used: a part of the path is a file, not a folder (ENOTDIR)`,
      );
      expect(output).not.toContain('{"type":"object"}');
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

test.describe("SANDBOX_ENABLED", () => {
  test.describe.configure({ timeout: 60_000 });

  test("false: the app runs, and /sandbox answers 404", async () => {
    const port = 3195;
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "travel-checkout-nosandbox-"));
    const child = spawn(process.execPath, SERVER_ARGS, {
      env: { ...process.env, SANDBOX_ENABLED: "false", PORT: String(port), DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: "1" },
      stdio: "ignore",
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      await expect.poll(async () => (await fetch(`${base}/api/health`).catch(() => undefined))?.status, { timeout: 30_000 }).toBe(200);
      const sandbox = await fetch(`${base}/sandbox/v1/health`, { headers: { "X-Service-API-Key": SANDBOX_AGENCY_KEY } });
      expect(sandbox.status).toBe(404);
    } finally {
      child.kill("SIGTERM");
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

test.describe("the start-up before traffic", () => {
  test.describe.configure({ timeout: 90_000 });

  test("on a fresh data folder, the port opens only once the start-up has finished: the first page is served by a started server", async () => {
    const port = 3196;
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "travel-checkout-first-request-"));
    const child = spawn(process.execPath, SERVER_ARGS, {
      env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: "1", DATABASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    try {
      const base = `http://127.0.0.1:${port}`;
      // The first answer of any kind: the moment the port took a connection.
      let first: Response | undefined;
      await expect
        .poll(
          async () => {
            first = await fetch(`${base}/`).catch(() => undefined);
            return first !== undefined;
          },
          { timeout: 60_000, intervals: [50] },
        )
        .toBe(true);
      expect(first!.status, "the demo shop, served at once").toBe(200);
      const ready = output.indexOf('"msg":"server ready"');
      const listening = output.indexOf('"msg":"listening"');
      expect(ready, "the start-up finished (database migrated, demo seeded)").toBeGreaterThanOrEqual(0);
      expect(listening, "the port opened after it").toBeGreaterThan(ready);
    } finally {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
