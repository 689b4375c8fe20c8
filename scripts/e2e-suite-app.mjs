// The browser tests' own app (the first web server of playwright.config.ts): its port and settings,
// in one place for the config that starts it and for `npm test`, which builds it beside the unit
// tests (scripts/test.mjs). Plain JavaScript, so `node scripts/test.mjs` needs no loader.

/** The port of the suite's app: `E2E_PORT`, else 3100. */
export function e2ePort(env) {
  return Number(env.E2E_PORT ?? 3100);
}

/**
 * The environment of the suite's app, for its build and its start alike (`next build` reads `PORT`
 * for the origins that may post server actions: next.config.mjs).
 */
export function suiteAppEnv(env) {
  const port = e2ePort(env);
  return {
    // PORT (not --port) so the app's default sandbox base URL points at this same server.
    PORT: String(port),
    // The test partner site (e2e/support/partner-site.ts) runs on another loopback origin, which
    // the demo partners must allow to frame the checkout and to show the badge.
    DEMO_PARTNER_EXTRA_ORIGINS: `http://127.0.0.1:${port + 11}`,
    DATA_DIR: env.E2E_DATA_DIR,
    METRICS_TOKEN: env.E2E_METRICS_TOKEN,
    // Every test is a client at 127.0.0.1, many at once, and the fuzz sends wrong secrets on
    // purpose: the throttles' defaults are tested on an instance of their own
    // (e2e/anonymous-budgets.spec.ts), not shared by the whole suite here.
    SESSIONS_API_CREATE_PER_MINUTE_PARTNER: "100000",
    SESSIONS_API_CREATE_PER_MINUTE_IP: "100000",
    SESSIONS_API_WRONG_SECRETS_PER_MINUTE_IP: "100000",
    SESSIONS_API_READS_PER_MINUTE_PARTNER: "100000",
    SESSIONS_API_ACTIONS_PER_MINUTE_PARTNER: "100000",
    STATUS_READS_PER_MINUTE_IP: "100000",
    DEMO_SHOP_CHECKOUTS_PER_MINUTE_IP: "100000",
    DEMO_SHOP_CHECKOUTS_PER_MINUTE: "100000",
    NEXT_TELEMETRY_DISABLED: "1",
    // `npm test` type-checks the same code beside the build: the build need not do it again (next.config.mjs).
    SKIP_BUILD_TYPECHECK: "1",
  };
}
