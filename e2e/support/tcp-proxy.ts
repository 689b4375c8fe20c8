import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A TCP proxy the test owns, between the app and a server (PostgreSQL): `cut()` is the network
 * failing (every open connection destroyed, new ones refused: the listening socket is closed, so a
 * connect gets ECONNREFUSED at once), `hang()` a server that no longer answers (open connections
 * destroyed, new ones accepted and never answered), `restore()` back to normal on the same port.
 * Used by e2e/outage.spec.ts and lib/db/outage.test.ts.
 */
export interface TcpProxy {
  port: number;
  /** Connections accepted so far (each to a fresh upstream connection). */
  readonly accepted: number;
  cut(): Promise<void>;
  hang(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }, port = 0): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  let server: Server | undefined;
  let hanging = false;
  /** Connections taken while hanging, never answered. */
  const held = new Set<Socket>();

  function listen(on: number): Promise<Server> {
    const created = createServer((client) => {
      accepted += 1;
      if (hanging) {
        // Taken, and left unanswered: what a client sees of a server gone silent.
        held.add(client);
        client.on("error", () => client.destroy());
        return;
      }
      const upstream = connect(target.port, target.host);
      sockets.add(client);
      sockets.add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(client);
        sockets.delete(upstream);
      };
      client.on("error", drop).on("close", drop);
      upstream.on("error", drop).on("close", drop);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    return new Promise((resolve, reject) => {
      created.once("error", reject);
      created.listen(on, "127.0.0.1", () => resolve(created));
    });
  }

  function stop(): Promise<void> {
    const closing = server;
    server = undefined;
    for (const socket of [...sockets, ...held]) socket.destroy();
    sockets.clear();
    held.clear();
    return new Promise((resolve) => (closing ? closing.close(() => resolve()) : resolve()));
  }

  server = await listen(port);
  const bound = (server.address() as AddressInfo).port;
  return {
    port: bound,
    get accepted() {
      return accepted;
    },
    cut: stop,
    hang() {
      hanging = true;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
    async restore() {
      hanging = false;
      for (const socket of held) socket.destroy();
      held.clear();
      if (!server) server = await listen(bound);
    },
    close: stop,
  };
}
