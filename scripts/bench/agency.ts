import { createHash } from "node:crypto";
import { Agent, createServer, request, type IncomingHttpHeaders } from "node:http";
import { PARTNER_SECRET } from "./journey";
import { acceptNotification, type Received } from "./journey-stats";

/*
 * The agency's side of the journey bench (scripts/bench-journey.ts), on loopback in front of one
 * app server: the app's public URL (APP_URL) points here, so the demo partner's notification URL
 * (`<APP_URL>/api/demo/notifications`, lib/demo/seed.ts) is this receiver, which verifies each
 * signature as docs/integrators/notifications.md tells agencies to and answers 401 to what it
 * cannot verify. Every other request is passed to the app as a load balancer would, the Host kept.
 */

/** The demo partner's signing secret, derived from its published secret (lib/demo/seed.ts, demoSigningSecret). */
export const DEMO_SIGNING_SECRET = `whsec_${createHash("sha256").update(`demo-signing:${PARTNER_SECRET}`).digest("base64")}`;

const NOTIFICATIONS_PATH = "/api/demo/notifications";

export interface Arrival extends Received {
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

function headersOf(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) if (typeof value === "string") headers.set(name, value);
  return headers;
}

export async function startAgency(port: number, appPort: number): Promise<Agency> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
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
        server.closeAllConnections();
        server.close(() => resolve());
        agent.destroy();
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      if (req.method === "POST" && req.url === NOTIFICATIONS_PATH) {
        const accepted = acceptNotification(DEMO_SIGNING_SECRET, body.toString("utf8"), headersOf(req.headers));
        if (!accepted) {
          agency.refused++;
          res.writeHead(401).end();
          return;
        }
        const at = performance.now();
        agency.received.push({ ...accepted, at });
        const key = `${accepted.sessionId} ${accepted.type}`;
        for (const wake of waiters.get(key) ?? []) wake(at);
        waiters.delete(key);
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
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return agency;
}
