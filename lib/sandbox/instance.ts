import "server-only";
import { getEnv, isLoopbackUrl } from "@/lib/config/env";
import { getDatabase } from "@/lib/db";
import { processSlot } from "@/lib/process/singleton";
import { createSandbox, type Sandbox } from "./app";
import { appPorts, engineOptionsOf, sandboxConfigFromEnv } from "./config";
import { appClientAddress } from "./control";
import { shareDatabase } from "./db/connection";

// One per process (lib/process/singleton.ts): one sandbox (one timer) is enough; its state is in the database anyway.
const sandboxSlot = processSlot<Sandbox>("sandbox.instance");

/**
 * The sandbox this app serves under /sandbox: one per process, created on first use, on the app's
 * own database (the same PGlite handle: a data folder can be opened once per process; or the same
 * PostgreSQL), in tables of its own.
 */
export function getSandbox(): Sandbox {
  let sandbox = sandboxSlot.get();
  if (!sandbox) {
    const env = getEnv();
    const config = sandboxConfigFromEnv(process.env, { ownPorts: appPorts(env.PORT, env.APP_URL) });
    const database = getDatabase().then((shared) => shareDatabase(shared, getEnv().DATABASE_URL));
    const created = createSandbox({
      database,
      ...engineOptionsOf(config),
      // Served by the app, the sandbox is on the app's origin: the addresses it gives browsers are
      // under APP_URL, never the localhost:$PORT the app calls it on.
      publicOrigin: env.APP_URL,
      publiclyReachable: !isLoopbackUrl(env.APP_URL),
      // The published QA token works from this machine only: the client's address as the app knows it.
      clientAddress: appClientAddress(env.TRUSTED_PROXY_HOPS),
      // Its pages redirect only to the app itself: the return routes our client gives are there.
      redirectOrigins: [new URL(env.APP_URL).origin],
    });
    // A failed open (server down, bad migration) must not be kept: the next request tries again.
    created.ready.catch(() => {
      if (sandboxSlot.get() === created) {
        sandboxSlot.clear();
        void created.close().catch(() => {});
      }
    });
    sandboxSlot.set(created);
    sandbox = created;
  }
  return sandbox;
}
