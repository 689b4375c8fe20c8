import "server-only";
import { createHash } from "node:crypto";
import { getDatabase, type Db } from "@/lib/db";
import { getEnv, type AppEnv } from "@/lib/config/env";
import { createFinancingClient, type FinancingClient } from "@/lib/financing/client";
import { createDatabaseStatusCache } from "@/lib/composition/db-status-cache";
import { createLayeredStatusCache, createMemoryStatusCache } from "@/lib/financing/status-cache";
import { observePartnerCall } from "@/lib/ops/metrics";
import { createReuseWindow, type ReuseWindow } from "@/lib/ops/shared-probe";
import { financingCredential, type FinancingCredential } from "@/lib/partners/credential";
import type { Partner } from "@/lib/partners/partners";
import { openPartnerSecret } from "@/lib/partners/secrets";
import { processSlot } from "@/lib/process/singleton";

/**
 * The app's composition, in one place (docs/contributors/architecture.md, "Layers"): the database, the partner API clients, and
 * the credential rule they are built with (lib/partners/credential.ts). The domains (lib/checkout,
 * lib/backoffice, lib/embed) take what they need from here and never from each other. Demo data
 * is seeded once at server start (lib/demo/seed.ts, from lib/startup.ts), not here.
 */

export interface AppContext {
  db: Db;
  /** The webhook receiver's database (lib/db/connection.ts, `intake`): `db` unless given. */
  webhookIntakeDb: Db;
  /** The app's public base URL: return and webhook URLs given to the partner API start with it. */
  appUrl: string;
  webhookToken: string;
  /** Today's date (ISO), for age checks. */
  today(): string;
  /**
   * The partner API credential of this partner's calls. `chosenAgencyId`: the agency a staff
   * member of a partner with its own group key is working on (ignored for any other partner).
   */
  credentialFor(partner: Partner, chosenAgencyId?: number | null): FinancingCredential;
  /** The partner API client acting with that credential, kept for the process. */
  clientFor(partner: Partner, chosenAgencyId?: number | null): FinancingClient;
  /**
   * The window within which a status read that anyone may trigger (a status poll, a return from
   * the provider) reuses the last one for that session instead of asking the partner API again.
   */
  statusReuse: ReuseWindow;
}

/** How long one status read of a session stands for the reads anonymous requests trigger. */
export const STATUS_REUSE_MS = 3_000;

/** The context over an open database and a validated configuration. */
export function createAppContext(
  db: Db,
  env: Pick<AppEnv, "APP_URL" | "WEBHOOK_TOKEN" | "financing">,
  webhookIntakeDb: Db = db,
): AppContext {
  // The ETags of status reads: shared by the instances (the database), with this process's memory
  // in front, so a status page view costs no query for them (lib/financing/status-cache.ts).
  const statusCache = createLayeredStatusCache(createMemoryStatusCache(), createDatabaseStatusCache(db));
  // One client per (partner, key, agency): a partner's key may change, and a group key's staff
  // move between agencies. The key is in the map's key only as a fingerprint.
  const clients = new Map<string, FinancingClient>();
  // The partner's own key is stored sealed (lib/partners/secrets.ts): opened here, where it is used.
  const credentialFor = (partner: Partner, chosenAgencyId: number | null = null) =>
    financingCredential(
      { financingApiKey: openPartnerSecret(partner, "financingApiKey"), financingAgencyId: partner.financingAgencyId },
      env.financing,
      chosenAgencyId,
    );
  return {
    db,
    webhookIntakeDb,
    appUrl: env.APP_URL,
    webhookToken: env.WEBHOOK_TOKEN,
    today: () => new Date().toISOString().slice(0, 10),
    credentialFor,
    statusReuse: createReuseWindow(STATUS_REUSE_MS),
    clientFor(partner, chosenAgencyId) {
      const { apiKey, agency } = credentialFor(partner, chosenAgencyId);
      const keyFingerprint = createHash("sha256").update(apiKey).digest("hex").slice(0, 16);
      const cacheKey = `${partner.id}|${keyFingerprint}|${agency.id ?? "-"}`;
      let client = clients.get(cacheKey);
      if (!client) {
        client = createFinancingClient({ ...env.financing, apiKey, agencyId: agency.id, statusCache, observe: observePartnerCall });
        clients.set(cacheKey, client);
      }
      return client;
    },
  };
}

// One per process (lib/process/singleton.ts): Next bundles this module apart for the instrumentation (the
// background worker) and for the app, and both must use the same partner API clients (their
// keep-alive connections, their status cache).
const contextSlot = processSlot<Promise<AppContext>>("app-context");

/** The process's context, built on first use (the database opened and migrated first). */
export function getAppContext(): Promise<AppContext> {
  let context = contextSlot.get();
  if (!context) {
    context = getDatabase().then(({ db, intake }) => createAppContext(db, getEnv(), intake));
    contextSlot.set(context);
    // A failed start (database down) is not kept: the next call tries again.
    context.catch(() => {
      if (contextSlot.get() === context) contextSlot.clear();
    });
  }
  return context;
}
