import { spawn, type ChildProcess } from "node:child_process";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Processes and a load balancer on loopback, for the several-instances tests. */

export interface Instance {
  name: string;
  port: number;
  child: ChildProcess;
  output: string[];
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export function startProcess(name: string, args: string[], env: Record<string, string>, port: number): Instance {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  child.stdout?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  return {
    name,
    port,
    child,
    output,
    stop(signal = "SIGTERM") {
      return new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill(signal);
      });
    },
  };
}

export async function waitUntilOk(url: string, timeoutMs = 60_000, headers: Record<string, string> = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(url, { headers })
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer in ${timeoutMs} ms`);
}

/**
 * A round-robin load balancer: each request goes to the next live backend, with the Host header
 * kept, as a real one would. A backend that refuses the connection is skipped.
 */
export async function startLoadBalancer(backends: () => Instance[]): Promise<{ port: number; servedBy: string[]; close(): Promise<void> }> {
  let next = 0;
  const servedBy: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const live = backends();
      const tryBackend = (attempt: number) => {
        const backend = live[(next + attempt) % live.length];
        if (!backend || attempt >= live.length) {
          res.writeHead(502).end("no backend");
          return;
        }
        const upstream = httpRequest(
          { host: "127.0.0.1", port: backend.port, method: req.method, path: req.url, headers: req.headers },
          (up) => {
            servedBy.push(`${backend.name} ${req.method} ${req.url}`);
            res.writeHead(up.statusCode ?? 502, up.headers);
            up.pipe(res);
          },
        );
        upstream.on("error", () => tryBackend(attempt + 1));
        upstream.end(body);
      };
      next = (next + 1) % Math.max(live.length, 1);
      tryBackend(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    servedBy,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
