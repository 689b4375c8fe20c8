import "server-only";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { RequestHandler } from "./app-server";

/**
 * Loads the routes a first customer would, before the port opens: each path asked once through
 * Next's handler on a loopback server of its own (an ephemeral port, closed after), so the first
 * real request does not pay for loading the route's code, JIT-compiling the render and opening the
 * database's prepared statements. What they answer does not matter (an unknown checkout session is
 * a 404 that still loads the checkout's layout); a failure is only skipped.
 */
export async function warmUp(handle: RequestHandler, paths: readonly string[]): Promise<number> {
  const server = createServer((request, response) => void handle(request, response).catch(() => response.destroy()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  let answered = 0;
  try {
    for (const path of paths) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}${path}`, { redirect: "manual", signal: AbortSignal.timeout(30_000) });
        await response.arrayBuffer();
        answered += 1;
      } catch {
        // Not warmed: the first real request loads it, as it would have.
      }
    }
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  return answered;
}
