import "server-only";
import type { Server } from "node:http";
import { processSingleton } from "@/lib/process/singleton";

/**
 * This process's HTTP servers, so that a graceful shutdown (lib/ops/shutdown.ts) can stop them
 * taking connections before it closes the database. The server entry (server.ts) adds the one it
 * creates; one set per process (lib/process/singleton.ts) because the entry's copy of this module
 * and the one Next bundles for the start-up code are two instances.
 */

function servers(): Set<Server> {
  return processSingleton("ops.http-servers", () => new Set<Server>());
}

export function trackHttpServer(server: Server): void {
  servers().add(server);
  server.once("close", () => servers().delete(server));
}

/**
 * Stops the servers taking connections and waits for the requests under way (idle keep-alive
 * connections are closed at once), for at most `ms`; then the rest are cut.
 */
export async function closeHttpServers(ms: number): Promise<void> {
  await Promise.all(
    [...servers()].map(
      (server) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            server.closeAllConnections();
            resolve();
          }, ms);
          timer.unref();
          server.close(() => {
            clearTimeout(timer);
            resolve();
          });
          server.closeIdleConnections();
        }),
    ),
  );
}
