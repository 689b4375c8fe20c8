import { spawn, type ChildProcess } from "node:child_process";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Processes and a load balancer on loopback, for the several-instances tests. */

/** The built app's server, as `npm run serve` starts it (server.ts, compiled by the build): the arguments to `node`. */
export const SERVER_ARGS = [".next/server-entry.mjs"];

export interface Instance {
  name: string;
  port: number;
  child: ChildProcess;
  output: string[];
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export function startProcess(name: string, args: string[], env: Record<string, string>, port: number): Instance {
  const child = spawn(process.execPath, args, {
    // No load balancer waits for these: SIGTERM stops them without the drain delay, unless a test sets one.
    env: { ...process.env, SHUTDOWN_DRAIN_DELAY_MS: "0", ...env, NEXT_TELEMETRY_DISABLED: "1" },
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

export interface WaitOptions {
  timeoutMs?: number;
  headers?: Record<string, string>;
  /** The process that should answer: the wait stops as soon as it exits, and its output's tail is in the error. */
  instance?: Instance;
}

function hasExited(instance: Instance): boolean {
  return instance.child.exitCode !== null || instance.child.signalCode !== null;
}

/** The last lines a process wrote, for an error that says why it did not come up. */
export function outputTail(instance: Instance, lines = 30): string {
  return instance.output.join("").split("\n").slice(-lines).join("\n");
}

/**
 * Polls `url` until it answers 2xx. Each attempt has its own short timeout, so a server that takes a
 * connection and never answers cannot hold the wait past its deadline. The default bound is
 * generous: beside other heavy work a start-up (migrations, the demo's password hashes, the
 * sandbox's own tables) took over a minute; a server that exits ends the wait at once.
 */
export async function waitUntilOk(url: string, { timeoutMs = 180_000, headers = {}, instance }: WaitOptions = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no attempt";
  const failure = (why: string) =>
    new Error(
      `${url} ${why} (last attempt: ${last})` +
        (instance ? `\n--- ${instance.name} (pid ${instance.child.pid ?? "none"}), last output ---\n${outputTail(instance)}` : ""),
    );
  while (Date.now() < deadline) {
    if (instance && hasExited(instance)) {
      throw failure(`will not answer: ${instance.name} exited (code ${instance.child.exitCode}, signal ${instance.child.signalCode})`);
    }
    const attempt = Math.min(5_000, Math.max(deadline - Date.now(), 1));
    const ok = await fetch(url, { headers, signal: AbortSignal.timeout(attempt) })
      .then(async (r) => {
        last = `HTTP ${r.status}`;
        await r.body?.cancel();
        return r.ok;
      })
      .catch((error: unknown) => {
        const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
        last = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
        return false;
      });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw failure(`did not answer in ${timeoutMs} ms`);
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

/** An app of a spec's own, up: its health, then its bundled sandbox (which opens its tables on first use, before a customer waits for it). */
export async function waitForAppAndSandbox(origin: string, instance: Instance, sandboxKey: string): Promise<void> {
  await waitUntilOk(`${origin}/api/health`, { timeoutMs: 180_000, instance });
  await waitUntilOk(`${origin}/sandbox/v1/health`, { timeoutMs: 180_000, headers: { "X-Service-API-Key": sandboxKey }, instance });
}
