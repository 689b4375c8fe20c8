import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";

describe("npm run sandbox", () => {
  it("serves the partner API sandbox on its own, on the port given by --port", async () => {
    const port = 4300 + Math.floor(Math.random() * 500);
    const child = spawn("npm", ["run", "--silent", "sandbox", "--", "--port", String(port)], {
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    try {
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const deadline = Date.now() + 30_000;
      while (!output.includes("listening") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(output).toContain(`http://127.0.0.1:${port}/sandbox/v1`);

      const response = await fetch(`http://127.0.0.1:${port}/sandbox/v1/health`, {
        headers: { "X-Service-API-Key": "fk_test_sandbox_agency_101" },
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: "UP", partnerCode: "AURORA" });
    } finally {
      // npm starts node in a process group of its own: end the whole group.
      process.kill(-child.pid!, "SIGTERM");
      await once(child, "exit");
    }
  });
});
