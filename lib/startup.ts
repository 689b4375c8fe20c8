import "server-only";
import { closeDatabase, getDatabase, type Database } from "@/lib/db";
import { DataDirUnusableError } from "@/lib/db/data-dir-lock";
import { ConfigError, getEnv, isLoopbackUrl, type AppEnv } from "@/lib/config/env";
import { publicSandboxWarning, SandboxConfigError, sandboxConfigFromEnv } from "@/lib/sandbox/config";
import { SecretOpenError } from "@/lib/security/secrets/secret-box";
import { logError, loggerFor, routeConsoleToLogger } from "@/lib/logger";

const log = loggerFor("startup");

/**
 * What the server does once, before it takes a request (called from `instrumentation.ts`): the
 * configuration (the sandbox's too, when it is served) is validated and the database opened and
 * migrated, so a bad setting stops the server at once with a message naming the variable instead
 * of failing a customer's request; with the production API, a database holding the demo data is
 * refused; partners' secrets are sealed under the current key; the sandbox's demo data is seeded;
 * then the background work starts.
 */
export async function startServer(): Promise<void> {
  // In production, what Next itself prints (an error a page threw, a warning) goes through the
  // logger too: JSON lines, errors by their safe shape. Development keeps Next's readable output.
  if (process.env.NODE_ENV === "production") routeConsoleToLogger();
  let env: AppEnv;
  try {
    env = getEnv();
    // The sandbox reads its own variables when it is first served: check them now, so a bad one
    // stops the server at start, named, rather than the first request to /sandbox.
    if (env.SANDBOX_ENABLED) {
      const warning = publicSandboxWarning(isLoopbackUrl(env.APP_URL), sandboxConfigFromEnv().qaToken);
      if (warning !== undefined) log.warn({ variables: ["APP_URL", "SANDBOX_QA_TOKEN"] }, warning);
    }
  } catch (error) {
    if (!(error instanceof ConfigError) && !(error instanceof SandboxConfigError)) throw error;
    // The message names the variables and never echoes a value.
    log.fatal({ variables: error.problems.map((problem) => problem.variable) }, `The server cannot start. ${error.message}`);
    process.exit(1);
  }
  if (env.tracing) {
    // Before anything is served or opened: Next's spans and ours go to the collector from the first request.
    const { startTracing } = await import("@/lib/ops/tracing");
    startTracing(env.tracing);
  }
  let database: Database;
  try {
    database = await getDatabase();
  } catch (error) {
    if (error instanceof DataDirUnusableError) {
      // The message names DATA_DIR, the folder and the cause in plain words (a path holds no secret);
      // the system's own error, by its safe shape.
      log.fatal({ variables: ["DATA_DIR"], err: error.cause }, `The server cannot start. ${error.message}`);
    } else {
      logError(log, "The server cannot start: the database could not be opened or migrated.", error);
    }
    process.exit(1);
  }
  if (env.financing.environment === "production") {
    // Demo rows carry published credentials (the QA and back-office guides list them): with the production API they
    // would open real checkout sessions and sign in to the back-office. Refused, with the fix.
    const { findDemoData } = await import("@/lib/demo/remove");
    const demo = await findDemoData(database.db);
    if (demo.partners > 0 || demo.staff > 0) {
      log.fatal(
        { demoPartners: demo.partners, demoStaff: demo.staff },
        "The server cannot start: this database holds the sandbox's demo data " +
          `(${demo.partners} demo partners, ${demo.staff} demo staff accounts), whose credentials are published, ` +
          "and the partner API is production. Stop the server and run `npm run demo:remove` with the same DATA_DIR or " +
          "DATABASE_URL, then start again.",
      );
      process.exit(1);
    }
  }
  // Partners' keys and signing secrets, staff's TOTP secrets and customers' data, still in plaintext
  // or sealed under an older key, are sealed under the current one (the first of SECRETS_KEYS) before anything reads them.
  const { resealAll } = await import("@/lib/operator/reseal");
  try {
    const { partnerSecrets, staffSecrets, customerData } = await resealAll(database.db, env.SECRETS_KEYS);
    if (partnerSecrets > 0) log.info({ resealed: partnerSecrets }, "partner secrets sealed under the current key");
    if (staffSecrets.resealed > 0)
      log.info({ resealed: staffSecrets.resealed }, "staff second-factor secrets sealed under the current key, bound to their member");
    if (staffSecrets.unreadable > 0)
      log.warn(
        { unreadable: staffSecrets.unreadable, variables: ["SECRETS_KEYS"] },
        "staff second-factor secrets that no listed key opens: their owners' second step fails until an admin resets it",
      );
    if (customerData.resealed > 0) log.info({ resealed: customerData.resealed }, "customers' data sealed under the current key");
    if (customerData.unreadable > 0)
      log.warn(
        { unreadable: customerData.unreadable, variables: ["SECRETS_KEYS"] },
        "customers' data that no listed key opens (each logged by its session id): shown as unavailable",
      );
  } catch (error) {
    if (!(error instanceof SecretOpenError)) throw error;
    // The message names a key id at most, never a key or a secret.
    log.fatal(
      { variables: ["SECRETS_KEYS"] },
      `The server cannot start. SECRETS_KEYS: ${error.message}. A key that sealed stored secrets stays listed, ` +
        "after the current one, until the server has started once with the new key first.",
    );
    process.exit(1);
  }
  // The demo partners and staff (on the sandbox only), before the first request can need them.
  const { seedDemo } = await import("@/lib/demo/seed");
  await seedDemo(database.db, env);
  const { createAppContext } = await import("@/lib/app-context");
  const { startBackgroundWork } = await import("@/lib/checkout/background/worker");
  const { checkoutShutdownStep } = await import("@/lib/checkout/background/shutdown");
  const { createFinancingClient } = await import("@/lib/financing/client");
  const { onShutdown } = await import("@/lib/ops/lifecycle");
  const { READY_API_TIMEOUT_MS, registerReadinessCheck } = await import("@/lib/ops/readiness");
  const { installShutdown } = await import("@/lib/ops/shutdown");
  const { countRowsIn, observePartnerCall } = await import("@/lib/ops/metrics");
  const { registerErrorPageRenderer } = await import("@/lib/ops/error-pages");
  const { renderErrorPage } = await import("@/lib/embed/error-page");
  countRowsIn(async () => database.db);
  // A page's blank 5xx is replaced by the app's own page, in the page's language.
  registerErrorPageRenderer(renderErrorPage);
  if (env.PAGE_PRELOAD) {
    // The offers and status pages' reads start as their request arrives, before Next routes it.
    const { registerRequestStep } = await import("@/lib/ops/request-steps");
    const { pagePreloadStep } = await import("@/lib/checkout/session/page-preload");
    registerRequestStep("checkout-page-preload", pagePreloadStep());
  }
  // Readiness asks the partner API's health call, with the deployment's key, once, briefly.
  const readinessClient = createFinancingClient({
    ...env.financing,
    timeoutMs: READY_API_TIMEOUT_MS,
    maxAttempts: 1,
    observe: observePartnerCall,
  });
  registerReadinessCheck("partnerApi", { timeoutMs: READY_API_TIMEOUT_MS + 250, check: () => readinessClient.health() });
  // The background work runs on a pool of its own: webhook deliveries never wait behind processing.
  const worker = startBackgroundWork(createAppContext(database.background, env));
  onShutdown("checkout", checkoutShutdownStep(database.db, worker));
  installShutdown({
    closeDatabase,
    drainDelayMs: env.SHUTDOWN_DRAIN_DELAY_MS,
    graceMs: env.SHUTDOWN_GRACE_MS,
  });
  log.info({ database: env.DATABASE_URL === undefined ? "pglite" : "postgresql", sandbox: env.SANDBOX_ENABLED }, "server ready");
  const { started } = await import("@/lib/ops/lifecycle");
  started();
}
