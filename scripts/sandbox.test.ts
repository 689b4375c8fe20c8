import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

describe("npm run sandbox", () => {
  // It opens (and migrates) a PGlite database of its own before it listens: slow on a busy machine.
  it("serves the partner API sandbox on its own, on the port given by --port", { timeout: 150_000 }, async () => {
    const port = 4300 + Math.floor(Math.random() * 500);
    const dataDir = mkdtempSync(path.join(tmpdir(), "sandbox-script-"));
    const child = spawn("npm", ["run", "--silent", "sandbox", "--", "--port", String(port)], {
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
      // LOG_LEVEL: the script says where it listens in its log, which tests (NODE_ENV=test) silence by default.
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "info" },
    });
    try {
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const deadline = Date.now() + 120_000;
      while (!output.includes("listening") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(output).toContain(`http://127.0.0.1:${port}/sandbox/v1`);
      // Before the wait for its database, it said it was starting, and where its state is.
      expect(output.indexOf("opening its database")).toBeGreaterThan(-1);
      expect(output.indexOf("opening its database")).toBeLessThan(output.indexOf("listening"));
      expect(output).toContain(path.join(dataDir, "sandbox"));

      const response = await fetch(`http://127.0.0.1:${port}/sandbox/v1/health`, {
        headers: { "X-Service-API-Key": "fk_test_sandbox_agency_101" },
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: "UP", partnerCode: "AURORA" });
      // Its state is in its own database under DATA_DIR.
      expect(existsSync(path.join(dataDir, "sandbox", "PG_VERSION"))).toBe(true);
    } finally {
      // npm starts node in a process group of its own: end the whole group.
      process.kill(-child.pid!, "SIGTERM");
      await once(child, "exit");
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
