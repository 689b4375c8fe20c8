import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { Agent, fetch as undiciFetch, type RequestInit as UndiciRequestInit, type Response as UndiciResponse } from "undici";
import { LOCAL_TEST_DATABASE_URL } from "../../scripts/test-database.mjs";
import { verifyNotification, type CheckoutNotification } from "@/examples/verify-notification";
import { APP_PORT } from "./app";
import { outputTail, SERVER_ARGS, startProcess, waitUntilOk, type Instance } from "./instances";
import { createTestCa, writeCaCertificate, writePemPair, type TestCa } from "./test-ca";

/**
 * The production path on one machine, as an operator would run it (docs/going-live-tls.md), with no
 * SQL and no seed:
 *
 * - an EMPTY PostgreSQL database of its own (`prodpath_<random>`, dropped at the end);
 * - the financing API's stand-in: the bundled sandbox run on its own in its production-like mode
 *   (`fk_live_` keys), over HTTPS with a certificate from a CA made for the run, on its own database;
 * - the production build of the app, configured for production: the stand-in's base URL, a
 *   `fk_live_` deployment key, SECRETS_KEYS, and the operator settings production would otherwise
 *   refuse the test with: the private CA (FINANCING_API_CA_FILE, NOTIFICATION_CA_FILE) and a partner
 *   endpoint on loopback (NOTIFICATION_PRIVATE_HOSTS);
 * - a partner's notification endpoint on loopback, over HTTPS with a certificate from the same CA,
 *   that records what it receives and verifies each signature as docs/integrators/notifications.md tells partners to
 *   (examples/verify-notification.ts), answering 401 to what it cannot verify.
 *
 * Needs the production build the web server made (playwright.config.ts) and a PostgreSQL server
 * (TEST_DATABASE_URL, or the machine's own: scripts/test-database.mjs).
 */

/** The stand-in's keys (the sandbox's seeded keys in their production form, lib/sandbox/accounts.ts). */
export const STAND_IN_KEYS = {
  /** Agency 101, Viajes Aurora: an agency key with providers, for a partner of its own. */
  agency101: "fk_live_sandbox_agency_101",
  /** Agency 201, Rutas del Sur: the deployment's key (FINANCING_API_KEY). */
  agency201: "fk_live_sandbox_agency_201",
  /** The management group key of agencies 101, 102 and the inactive 103. */
  group: "fk_live_sandbox_group_1",
} as const;

/** The path the partner's endpoint takes notifications on. */
export const NOTIFICATION_PATH = "/travel-checkout/notifications";

export interface ReceivedNotification {
  webhookId: string | undefined;
  /** The body exactly as received. */
  body: string;
  /** Verified with the secret the endpoint was given: the payload; else undefined (answered 401). */
  payload: CheckoutNotification | undefined;
  receivedAt: Date;
}

export interface PartnerEndpoint {
  /** `https://127.0.0.1:<port>/travel-checkout/notifications`: what the partner's notification URL is set to. */
  url: string;
  received: ReceivedNotification[];
  /** The partner's signing secret (`whsec_…`), shown once by the app: from then on, notifications are verified with it. */
  trust(signingSecret: string): void;
  /** Waits for a verified notification the predicate accepts. */
  waitFor(predicate: (payload: CheckoutNotification) => boolean, timeoutMs?: number): Promise<CheckoutNotification>;
  close(): Promise<void>;
}

export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface ProductionPathOptions {
  /** The stand-in's port and the app's (each process on a port of its own). */
  ports?: { sandbox: number; app: number };
  /** More (or other) settings for the app, e.g. SMTP_URL for invitations by e-mail. */
  appEnv?: Record<string, string>;
  /**
   * A database on the PostgreSQL server the run's databases are made on (findTestDatabase's URL);
   * by default TEST_DATABASE_URL, else the machine's own server.
   */
  postgresUrl?: string;
}

export interface ProductionPath {
  /** Where the app says it lives (APP_URL): the customer's and staff's browser go there. */
  appUrl: string;
  /** The financing API's stand-in's public origin, `https://localhost:<port>` (SANDBOX_PUBLIC_ORIGIN): its hosted pages are there. */
  standInOrigin: string;
  /** FINANCING_API_BASE_URL: `https://127.0.0.1:<port>/sandbox/v1`. */
  financingBaseUrl: string;
  /** The CA the stand-in's and the partner endpoint's certificates come from, and its file. */
  ca: TestCa;
  caFile: string;
  /** The app's own database (PostgreSQL), empty before the app started. */
  databaseUrl: string;
  /** The settings the app was started with: the production configuration of this run. */
  appEnv: Record<string, string>;
  app: Instance;
  standIn: Instance;
  partnerEndpoint: PartnerEndpoint;
  /** A fetch that trusts the run's CA (the stand-in, the partner endpoint), as the app is told to. */
  fetchTrusting(url: string, init?: UndiciRequestInit): Promise<UndiciResponse>;
  /** Another instance of the app, on the same database, with these settings changed (`""`: unset). */
  startApp(name: string, port: number, overrides?: Record<string, string>): Promise<Instance>;
  /** A script of the project (`scripts/admin.ts`, …) run as `npm run` runs it, with the app's settings (and these changes). */
  runScript(args: readonly string[], overrides?: Record<string, string>): Promise<ScriptRun>;
  /** Stops everything it started and drops the databases it made. */
  stop(): Promise<void>;
}

function databaseUrlFor(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const SCRIPT_LOADER = ["--import", "tsx", "--import", "./scripts/server-only-stub.mjs"];

async function startPartnerEndpoint(ca: TestCa): Promise<PartnerEndpoint> {
  const { certificate, key } = ca.issue(["localhost", "127.0.0.1"]);
  const received: ReceivedNotification[] = [];
  let secret: string | undefined;
  const waiters = new Set<() => void>();
  const server: Server = createServer({ cert: certificate, key }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method !== "POST" || request.url !== NOTIFICATION_PATH) {
        response.writeHead(404).end();
        return;
      }
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers.set(name, value);
      let payload: CheckoutNotification | undefined;
      try {
        payload = secret === undefined ? undefined : verifyNotification(secret, body, headers);
      } catch {
        payload = undefined;
      }
      received.push({ webhookId: headers.get("webhook-id") ?? undefined, body, payload, receivedAt: new Date() });
      // A notification that cannot be verified is refused, as a partner's endpoint must: the app retries it.
      response.writeHead(payload === undefined ? 401 : 204).end();
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}${NOTIFICATION_PATH}`,
    received,
    trust(signingSecret) {
      secret = signingSecret;
    },
    async waitFor(predicate, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find((entry) => entry.payload !== undefined && predicate(entry.payload));
        if (found?.payload) return found.payload;
        const left = deadline - Date.now();
        if (left <= 0) {
          throw new Error(
            `no verified notification matched within ${timeoutMs} ms (received ${received.length}, verified ${received.filter((r) => r.payload).length})`,
          );
        }
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, Math.min(left, 1_000));
          waiters.add(wake);
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls `url` through `fetchTrusting` until it answers 2xx, or the process it waits for exits. */
async function waitUntilOkOverTls(
  fetchTrusting: ProductionPath["fetchTrusting"],
  url: string,
  headers: Record<string, string>,
  instance: Instance,
  timeoutMs = 90_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no attempt";
  while (Date.now() < deadline) {
    if (instance.child.exitCode !== null || instance.child.signalCode !== null) break;
    try {
      const response = await fetchTrusting(url, { headers, signal: AbortSignal.timeout(5_000) });
      last = `HTTP ${response.status}`;
      await response.body?.cancel();
      if (response.ok) return;
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      last = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer (last attempt: ${last})\n--- ${instance.name}, last output ---\n${outputTail(instance)}`);
}

/**
 * Starts the whole path and waits until the stand-in answers over HTTPS and the app is alive
 * (`/api/health`; readiness is the test's to check). Whatever was started is stopped if a step fails.
 */
export async function startProductionPath(options: ProductionPathOptions = {}): Promise<ProductionPath> {
  const ports = options.ports ?? { sandbox: APP_PORT + 35, app: APP_PORT + 36 };
  const dir = mkdtempSync(path.join(os.tmpdir(), "prodpath-"));
  const suffix = randomBytes(6).toString("hex");
  const appDatabase = `prodpath_${suffix}`;
  const standInDatabase = `prodpath_${suffix}_standin`;
  const adminUrl = options.postgresUrl ?? (process.env.TEST_DATABASE_URL || LOCAL_TEST_DATABASE_URL);
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const instances: Instance[] = [];
  const created: string[] = [];
  let endpoint: PartnerEndpoint | undefined;

  const ca = createTestCa(`Production path test CA ${suffix}`);
  const caFile = writeCaCertificate(dir, ca);
  const tlsAgent = new Agent({ connect: { ca: ca.certificate } });
  const fetchTrusting: ProductionPath["fetchTrusting"] = (url, init = {}) => undiciFetch(url, { ...init, dispatcher: tlsAgent });

  async function stop(): Promise<void> {
    await Promise.all(instances.map((instance) => instance.stop("SIGTERM")));
    await endpoint?.close();
    await tlsAgent.close();
    for (const name of created) await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }

  try {
    for (const name of [appDatabase, standInDatabase]) {
      await admin.unsafe(`create database ${name}`);
      created.push(name);
    }
    const databaseUrl = databaseUrlFor(adminUrl, appDatabase);
    // Its public name (the customer's browser goes there) and the address the app calls, as an
    // operator's may differ: the links it gives must follow SANDBOX_PUBLIC_ORIGIN, not the request.
    const standInOrigin = `https://localhost:${ports.sandbox}`;
    const financingBaseUrl = `https://127.0.0.1:${ports.sandbox}/sandbox/v1`;
    const appUrl = `http://localhost:${ports.app}`;
    endpoint = await startPartnerEndpoint(ca);

    const standInTls = writePemPair(dir, "stand-in", ca.issue(["localhost", "127.0.0.1"]));
    const standIn = startProcess(
      "financing API stand-in",
      [...SCRIPT_LOADER, "scripts/sandbox.ts", "--port", String(ports.sandbox)],
      {
        DATABASE_URL: databaseUrlFor(adminUrl, standInDatabase),
        DATA_DIR: path.join(dir, "stand-in-data"),
        SANDBOX_PRODUCTION_LIKE: "true",
        SANDBOX_TLS_CERT_FILE: standInTls.certificateFile,
        SANDBOX_TLS_KEY_FILE: standInTls.keyFile,
        SANDBOX_PUBLIC_ORIGIN: standInOrigin,
      },
      ports.sandbox,
    );
    instances.push(standIn);

    const appEnv: Record<string, string> = {
      PORT: String(ports.app),
      APP_URL: appUrl,
      DATABASE_URL: databaseUrl,
      // Unused with PostgreSQL, but never the runner's own .data.
      DATA_DIR: path.join(dir, "app-data"),
      FINANCING_API_BASE_URL: financingBaseUrl,
      // The stand-in is on this machine, which the base URL alone would call the sandbox.
      FINANCING_API_ENVIRONMENT: "production",
      FINANCING_API_KEY: STAND_IN_KEYS.agency201,
      SECRETS_KEYS: `prodpath:${randomBytes(32).toString("base64")}`,
      FINANCING_API_CA_FILE: caFile,
      NOTIFICATION_CA_FILE: caFile,
      NOTIFICATION_PRIVATE_HOSTS: "127.0.0.1",
      // Whatever the runner's own environment holds: empty is unset.
      SANDBOX_ENABLED: "",
      DEMO_PARTNER_SECRET: "",
      DEMO_PARTNER_EXTRA_ORIGINS: "",
      WEBHOOK_TOKEN: "",
      ...options.appEnv,
    };
    const app = startProcess("app (production)", SERVER_ARGS, appEnv, ports.app);
    instances.push(app);

    await waitUntilOkOverTls(fetchTrusting, `${financingBaseUrl}/health`, { "X-Service-API-Key": STAND_IN_KEYS.agency201 }, standIn);
    await waitUntilOk(`http://127.0.0.1:${ports.app}/api/health`, { timeoutMs: 180_000, instance: app });

    const partnerEndpoint = endpoint;
    return {
      appUrl,
      standInOrigin,
      financingBaseUrl,
      ca,
      caFile,
      databaseUrl,
      appEnv,
      app,
      standIn,
      partnerEndpoint,
      fetchTrusting,
      async startApp(name, port, overrides = {}) {
        const instance = startProcess(
          name,
          SERVER_ARGS,
          { ...appEnv, APP_URL: `http://localhost:${port}`, ...overrides, PORT: String(port) },
          port,
        );
        instances.push(instance);
        await waitUntilOk(`http://127.0.0.1:${port}/api/health`, { timeoutMs: 180_000, instance });
        return instance;
      },
      async runScript(args, overrides = {}) {
        const child = spawn(process.execPath, [...SCRIPT_LOADER, ...args], {
          env: { ...process.env, ...appEnv, ...overrides, NEXT_TELEMETRY_DISABLED: "1" },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
        // "close": the process has exited and its output is all read.
        const [code] = (await once(child, "close")) as [number | null];
        return { code, stdout, stderr };
      },
      stop,
    };
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
}
