import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { LAUNCH_ARGS } from "./scripts/chromium.mjs";
import { e2ePort, suiteAppEnv } from "./scripts/e2e-suite-app.mjs";

// End-to-end tests run against the production build (`next build` + `npm run serve`), in the system
// Chromium: Playwright's own browser downloads are not available. Run them with `npm run test:e2e`
// (scripts/e2e.mjs finds or installs Chromium and exports CHROMIUM_PATH).
const isCI = Boolean(process.env.CI);
const port = e2ePort(process.env);
const baseURL = `http://127.0.0.1:${port}`;

// The app under test keeps its data in a throwaway directory, never in the developer's `.data`.
// This file is loaded by the runner and by every worker: set the variable once, in the runner, and
// the workers inherit it. scripts/e2e.mjs makes (and removes) it; a bare `npx playwright test` gets
// a fresh one under the OS temp directory.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), "travel-checkout-e2e-"));

// The app's metrics (/api/metrics), read by tests that prove a counter moved: a throwaway token, set
// once in the runner like E2E_DATA_DIR.
process.env.E2E_METRICS_TOKEN ??= `e2e-metrics-${crypto.randomUUID()}`;

// The QA guide's spec (docs/qa/playwright-spec.md, e2e/qa-guide.spec.ts) moves the sandbox's test clock, as a QA team does on
// a deployment of its own. It gets one: the same build on another port, with its own data (so its
// own sandbox), and the app the other specs share never sees its clock move.
const qaGuidePort = port + 20;

const chromium = {
  ...devices["Desktop Chrome"],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: [...LAUNCH_ARGS],
  },
};

/** The spec files of these names (`e2e/<name>.spec.ts`). */
function specFiles(names: readonly string[]): RegExp[] {
  return names.map((name) => new RegExp(`/${name}\\.spec\\.ts$`));
}

/**
 * The specs that run only against apps they start themselves (their own ports and data: restarts,
 * outages, several instances, production settings…), never against the suite's app. They run in a
 * lane of their own, beside the specs on the suite's app: much of their time is spent waiting (a
 * server starting, an outage lasting, a drain), which the other lane fills. Each lane runs one spec
 * at a time, so the specs on the suite's app never share it with each other (some count the calls
 * it makes), and the own-app specs' fixed ports never meet. A spec that touches the suite's app at
 * all stays out of this list.
 */
const OWN_APP_SPEC_NAMES = [
  "anonymous-budgets",
  "events-api",
  "instances",
  "logs",
  "operator",
  "outage",
  "payment-links-email",
  "production",
  "production-path",
  "production-path-flow",
  "production-recipe",
  "public-origin",
  "restart",
  "shutdown",
  "startup",
  "traces",
];
const OWN_APP_SPECS = specFiles(OWN_APP_SPEC_NAMES);

/**
 * The specs of the staff's consoles: the back-office and the operator's pages, on the suite's app
 * or on apps of their own (the operator's console, going live, payment links by e-mail). `npm test`
 * runs them in a second Playwright run (`E2E_LANE=staff`, scripts/e2e.mjs) on a suite app of their
 * own, beside the customer and API specs in the first: most of a spec's time is waiting (a page, a
 * second-factor step, the sandbox's webhooks, a server starting), not the machine's cores. Each
 * app still serves one spec at a time, so the specs that count what it did count only their own.
 */
const STAFF_SPEC_NAMES = [
  "admin",
  "admin-security",
  "admin-staff",
  "admin-theme",
  "data-requests",
  "notifications",
  "operator",
  "operator-partners",
  "ownership",
  "payment-links",
  "payment-links-email",
  "production-path-flow",
];
const STAFF_SPECS = specFiles(STAFF_SPEC_NAMES);
const QA_GUIDE_SPEC = /\/qa-guide\.spec\.ts$/;

/** Unset: every spec, on one suite app. `customer`: all but the staff specs. `staff`: those alone. */
const lane = process.env.E2E_LANE || undefined;
if (lane !== undefined && lane !== "customer" && lane !== "staff") throw new Error(`E2E_LANE must be customer or staff, not ${lane}`);
const laneSpecs =
  lane === "staff"
    ? {
        suite: { testMatch: STAFF_SPECS, testIgnore: OWN_APP_SPECS },
        ownApps: { testMatch: specFiles(OWN_APP_SPEC_NAMES.filter((name) => STAFF_SPEC_NAMES.includes(name))) },
      }
    : {
        suite: { testIgnore: [QA_GUIDE_SPEC, ...OWN_APP_SPECS, ...(lane === "customer" ? STAFF_SPECS : [])] },
        ownApps: { testMatch: OWN_APP_SPECS, testIgnore: lane === "customer" ? STAFF_SPECS : [] },
      };

export default defineConfig({
  testDir: "e2e",
  forbidOnly: isCI,
  retries: isCI ? 1 : 0,
  // One per lane (projects below); CI has 2 cores.
  workers: 2,
  // Generous bounds, stated, so that a busy machine fails no test on its speed alone (a back-office
  // page analysed by axe took over 30 s beside other heavy work); a stuck test still fails.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  // Each test as it ends, then each spec file's time, slowest first (e2e/support/spec-times-reporter.ts).
  reporter: [
    ["list"],
    ["./e2e/support/spec-times-reporter.ts"],
    ["html", { open: "never", outputFolder: lane ? `playwright-report/${lane}` : "playwright-report" }],
  ],
  // Each lane's own, so that one never clears the other's.
  outputDir: lane ? `test-results/${lane}` : "test-results",
  use: {
    baseURL,
    // A failed test keeps its trace (actions, DOM snapshots, network), without the screencast:
    // recording screenshots for every test kept Chromium's compositor busy (checkout +
    // accessibility specs: 158–171 s with them, 122–127 s without, 116 s with no trace at all; the
    // whole suite in CI ~7 % faster without them).
    trace: { mode: "retain-on-failure", screenshots: false },
  },
  projects: [
    { name: lane === "staff" ? "staff-app" : "suite-app", ...laneSpecs.suite, use: chromium, workers: 1 },
    { name: lane === "staff" ? "staff-own-apps" : "own-apps", ...laneSpecs.ownApps, use: chromium, workers: 1 },
    ...(lane === "staff"
      ? []
      : [
          // As a QA team runs it: its baseURL is the app's own URL (APP_URL's default, localhost).
          { name: "qa-guide", testMatch: QA_GUIDE_SPEC, use: { ...chromium, baseURL: `http://localhost:${qaGuidePort}` } },
        ]),
  ],
  webServer: [
    {
      // `npm test` has built it already, beside the unit tests (scripts/test.mjs); else it is built here.
      command: process.env.E2E_PREBUILT === "1" ? "npm run serve" : "npm run build && npm run serve",
      url: `${baseURL}/api/health`,
      reuseExistingServer: !isCI,
      // `next build` on a 2-core CI machine is slow.
      timeout: 12 * 60_000,
      stdout: "pipe",
      stderr: "pipe",
      env: suiteAppEnv(process.env) as Record<string, string>,
    },
    // The QA guide's app, with the lanes that run its spec.
    ...(lane === "staff"
      ? []
      : [
          {
            // Started after the first, so the build is there.
            command: "npm run serve",
            url: `http://127.0.0.1:${qaGuidePort}/api/health`,
            reuseExistingServer: !isCI,
            // Its start-up (migrations, the demo seed) took over a minute on a busy 2-core machine.
            timeout: 3 * 60_000,
            stdout: "pipe" as const,
            stderr: "pipe" as const,
            env: { PORT: String(qaGuidePort), DATA_DIR: path.join(process.env.E2E_DATA_DIR, "qa-guide"), NEXT_TELEMETRY_DISABLED: "1" },
          },
        ]),
  ],
});
