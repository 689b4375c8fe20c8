import { fork } from "node:child_process";
import { createHash } from "node:crypto";
import { Agent, createServer, request, type IncomingHttpHeaders } from "node:http";
import { fileURLToPath } from "node:url";
import { PARTNER_SECRET } from "./journey";
import { acceptNotification, type Received } from "./journey-stats";

/*
 * The agency's side of the journey bench (scripts/bench-journey.ts), on loopback in front of one
 * app server: the app's public URL (APP_URL) points here, so the demo partner's notification URL
 * (`<APP_URL>/api/demo/notifications`, lib/demo/seed.ts) is this receiver, which verifies each
 * signature as docs/integrators/notifications.md tells agencies to and answers 401 to what it
 * cannot verify. Every other request is passed to the app as a load balancer would, the Host kept.
 *
 * It runs in a process of its own (this file is also its entry), as an agency's backend is another
 * system: in the bench's process, which drives the customers, its answer to each notification waited
 * behind their work. Each arrival is stamped there and sent here over IPC.
 */

/** The demo partner's signing secret, derived from its published secret (lib/demo/seed.ts, demoSigningSecret). */
export const DEMO_SIGNING_SECRET = `whsec_${createHash("sha256").update(`demo-signing:${PARTNER_SECRET}`).digest("base64")}`;

const NOTIFICATIONS_PATH = "/api/demo/notifications";

export interface Arrival extends Received {
  /** performance.now() of the bench's process. */
  at: number;
}

export interface Agency {
  /** The receiver's origin: the app's APP_URL. */
  url: string;
  received: Arrival[];
  /** Deliveries answered 401 (a signature that did not verify). */
  refused: number;
  /** When a notification of `type` for `sessionId` arrived (performance.now()), waiting up to `timeoutMs`. */
  arrival(sessionId: string, type: string, timeoutMs: number): Promise<number>;
  close(): Promise<void>;
}

/** What the agency's process tells the bench: ready, a delivery accepted (its moment on the epoch clock, ms), one refused. */
type AgencyMessage = { ready: true } | { accepted: Received; epochMs: number } | { refused: true };

function headersOf(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) if (typeof value === "string") headers.set(name, value);
  return headers;
}

/** The agency's server, in the process it runs in; `tell` reports each delivery. */
function serveAgency(port: number, appPort: number, tell: (message: AgencyMessage) => void): void {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      if (req.method === "POST" && req.url === NOTIFICATIONS_PATH) {
        const accepted = acceptNotification(DEMO_SIGNING_SECRET, body.toString("utf8"), headersOf(req.headers));
        if (!accepted) {
          tell({ refused: true });
          res.writeHead(401).end();
          return;
        }
        tell({ accepted, epochMs: performance.timeOrigin + performance.now() });
        res.writeHead(204).end();
        return;
      }
      const upstream = request(
        { host: "127.0.0.1", port: appPort, method: req.method, path: req.url, headers: req.headers, agent },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
          // A client gone before the end (the sandbox's webhook deliveries drop the body they do not
          // read): the rest is read and dropped, so the kept-alive socket returns to the pool. Left
          // unread, it stayed busy until the app closed it as idle, and 64 such (the pool's size)
          // stalled every journey behind them.
          res.on("close", () => {
            if (!up.complete) {
              up.unpipe(res);
              up.resume();
            }
          });
        },
      );
      upstream.on("error", () => res.writeHead(502).end());
      upstream.end(body);
    });
  });
  server.listen(port, "127.0.0.1", () => tell({ ready: true }));
}

/** Starts the agency in a process of its own, in front of the app on `appPort`. */
export async function startAgency(port: number, appPort: number): Promise<Agency> {
  const child = fork(fileURLToPath(import.meta.url), [String(port), String(appPort)], { execArgv: ["--import", "tsx"], stdio: "inherit" });
  const waiters = new Map<string, ((at: number) => void)[]>();
  const agency: Agency = {
    url: `http://127.0.0.1:${port}`,
    received: [],
    refused: 0,
    arrival(sessionId, type, timeoutMs) {
      const key = `${sessionId} ${type}`;
      const already = agency.received.find((r) => r.sessionId === sessionId && r.type === type);
      if (already) return Promise.resolve(already.at);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${type} notification within ${timeoutMs} ms`)), timeoutMs);
        waiters.set(key, [
          ...(waiters.get(key) ?? []),
          (at) => {
            clearTimeout(timer);
            resolve(at);
          },
        ]);
      });
    },
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
  await new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the agency's process ended (${code})`)));
    child.on("message", (message: AgencyMessage) => {
      if ("ready" in message) return resolve();
      if ("refused" in message) {
        agency.refused++;
        return;
      }
      // The same epoch clock, read in each process: the arrival on this process's performance.now().
      const at = message.epochMs - performance.timeOrigin;
      agency.received.push({ ...message.accepted, at });
      const key = `${message.accepted.sessionId} ${message.accepted.type}`;
      for (const wake of waiters.get(key) ?? []) wake(at);
      waiters.delete(key);
    });
  });
  child.removeAllListeners("exit");
  return agency;
}

// The agency's process: `node --import tsx scripts/bench/agency.ts <port> <appPort>`, forked by startAgency.
if (process.argv[1] === fileURLToPath(import.meta.url) && process.send) {
  const send = process.send.bind(process);
  serveAgency(Number(process.argv[2]), Number(process.argv[3]), (message) => send(message));
  // Ends with the bench, however the bench ends.
  process.on("disconnect", () => process.exit(0));
}
