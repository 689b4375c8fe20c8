import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const TYPED_RULES = ["@typescript-eslint/no-floating-promises", "@typescript-eslint/no-misused-promises"];

// ---------------------------------------------------------------------------------------------
// Layers (docs/contributors/architecture.md): each folder may import its own layer and the layers below it,
// never above. Checked by import/no-restricted-paths (an import by `@/`, by a relative path, from a
// .ts or a .tsx file alike); import circles by import/no-cycle. Default-deny: every entry of lib/,
// every testing/ folder and server.ts is listed here, or lib/layers.test.ts fails.
// ---------------------------------------------------------------------------------------------
const ENTRY = ["app", "proxy.ts", "instrumentation.ts", "lib/startup.ts", "server.ts"];
const UI = ["components"];
/** The two consoles: each depends on shared domains, never on the other. */
const CONSOLES = ["lib/backoffice", "lib/operator"];
const FEATURE = [...CONSOLES, "lib/demo", "lib/docs"];
const CORE = ["lib/checkout", "lib/embed", "lib/theme", "lib/identity"];
const SANDBOX = ["lib/sandbox"];
const COMPOSITION = ["lib/app-context.ts", "lib/composition"];
const SHARED = ["lib/financing", "lib/partners", "lib/mail", "lib/i18n", "lib/openapi", "lib/audit", "lib/money-moves"];
/**
 * The platform, in sub-layers from the bottom: each imports only its own and the ones before it.
 * lib/http and lib/security are one step apart (security names the request's headers and paths
 * that lib/http defines), so the two cannot form a loop.
 */
const PLATFORM_LAYERS = [
  ["lib/text", "lib/validation", "lib/logging", "lib/logger.ts", "lib/app-error.ts", "lib/process", "lib/tracing"],
  ["lib/config"],
  ["lib/db"],
  ["lib/http"],
  ["lib/security"],
  ["lib/ops", "lib/validated-action.ts"],
];
const PLATFORM = PLATFORM_LAYERS.flat();
/** The domain's words (statuses, states, roles, locales, customer fields): imports nothing, imported by all. */
const VOCABULARY = ["lib/vocabulary"];
/**
 * Test support (test code, not a layer of the app): it may seed across domains, never import app/
 * or components/, and no production code imports it. Every testing/ folder is listed.
 */
const TEST_SUPPORT = [
  "lib/testing",
  "lib/db/testing",
  "lib/financing/testing",
  "lib/openapi/testing",
  "lib/checkout/testing",
  "lib/sandbox/testing",
  "lib/backoffice/testing",
  "lib/identity/testing",
  "lib/backoffice/notifications/testing",
];

/** Every layer, top to bottom (lib/layers.test.ts: each lib/ entry, testing/ folder and server.ts is in one). */
export const LAYERS = {
  entry: ENTRY,
  ui: UI,
  feature: FEATURE,
  core: CORE,
  sandbox: SANDBOX,
  composition: COMPOSITION,
  shared: SHARED,
  platform: PLATFORM,
  vocabulary: VOCABULARY,
  testSupport: TEST_SUPPORT,
};

const ALL_BUT_VOCABULARY = [...ENTRY, ...UI, ...FEATURE, ...CORE, ...SANDBOX, ...COMPOSITION, ...SHARED, ...PLATFORM];

/** Each layer and what it must not import (everything above it, and what sits beside it apart). */
const LAYER_ZONES = [
  {
    target: ["lib/**", "components/**"],
    from: ENTRY,
    message: "lib/ and components/ never import app/ or the other entry code (proxy.ts, instrumentation.ts, lib/startup.ts, server.ts).",
  },
  { target: "lib/**", from: UI, message: "lib/ never imports components/." },
  {
    target: "components/**",
    from: ["lib/db"],
    message: "components/ never imports lib/db: a column's words are lib/vocabulary's, a query a domain's.",
  },
  {
    target: ["lib/**", "components/**", "app/**", ...ENTRY.filter((path) => path !== "app")],
    from: TEST_SUPPORT,
    message: "Production code never imports test support (a testing/ folder).",
  },
  {
    target: PLATFORM.map(glob),
    from: [...ENTRY, ...UI, ...FEATURE, ...CORE, ...SANDBOX, ...COMPOSITION, ...SHARED],
    message: "Platform code imports no domain: let the domain register with it instead.",
  },
  // The platform's order: text, validation, logging, the error type → config → db → http → security → ops.
  ...PLATFORM_LAYERS.slice(0, -1).map((layer, index) => ({
    target: layer.map(glob),
    from: PLATFORM_LAYERS.slice(index + 1).flat(),
    message: `Platform sub-layers: ${layer.join(", ")} import only what sits below them (text, validation, logging → config → db → http → security → ops).`,
  })),
  {
    target: VOCABULARY.map(glob),
    from: ALL_BUT_VOCABULARY,
    message: "The vocabulary (lib/vocabulary) imports nothing: the domains and the schema take their words from it.",
  },
  {
    target: SHARED.filter((path) => path !== "lib/i18n").map(glob),
    from: [...ENTRY, ...UI, ...FEATURE, ...CORE, ...SANDBOX, ...COMPOSITION],
    message: "Shared domains and integrations import only each other and platform code.",
  },
  // The texts are keyed by the domains' own field and code names: types only (the rule below).
  {
    target: glob("lib/i18n"),
    from: [...ENTRY, ...UI, "lib/operator", "lib/demo", "lib/docs", "lib/embed", "lib/theme", ...SANDBOX, ...COMPOSITION],
    message: "lib/i18n imports only shared domains, platform code and the domains' types.",
  },
  {
    target: COMPOSITION.map(glob),
    from: [...ENTRY, ...UI, ...FEATURE, ...CORE, ...SANDBOX],
    message: "The composition imports only shared domains and platform code.",
  },
  {
    target: CORE.map(glob),
    from: [...ENTRY, ...UI, ...FEATURE, ...SANDBOX],
    message:
      "Core domains (checkout, embed, theme, identity) never import a feature domain (back-office, operator, demo, docs), the sandbox, components/ or app/.",
  },
  {
    target: SANDBOX.map(glob),
    from: [...ENTRY, ...UI, ...FEATURE, ...CORE, ...COMPOSITION, "lib/partners", "lib/mail", "lib/i18n", "lib/audit", "lib/money-moves"],
    message: "The sandbox is a separate system: the financing contract, the OpenAPI builder and platform code only.",
  },
  {
    target: SANDBOX.map(glob),
    from: ["lib/financing"],
    except: ["./contract.ts"],
    message: "The sandbox is a separate system: of lib/financing, the contract only.",
  },
  {
    target: FEATURE.map(glob),
    from: ENTRY.filter((path) => path !== "lib/startup.ts"),
    message: "Feature domains never import app/, proxy.ts, instrumentation.ts or server.ts.",
  },
  ...CONSOLES.map((console) => ({
    target: glob(console),
    from: CONSOLES.filter((other) => other !== console),
    message: "The consoles (lib/backoffice, lib/operator) never import each other: what both need belongs to a domain below them.",
  })),
];

/** Test support's own rule: any domain, to seed and drive it; never app/ or components/. */
const TEST_SUPPORT_ZONES = [
  {
    target: TEST_SUPPORT.map(glob),
    from: [...ENTRY.filter((path) => path !== "lib/startup.ts"), ...UI],
    message: "Test support (a testing/ folder) seeds and drives the domains, never app/ or components/.",
  },
];

/** A domain's code that lib/i18n may name by type only, by `@/` or by a relative path. */
const I18N_TYPE_ONLY = /^(?:@\/lib\/|(?:\.\.\/)+(?:lib\/)?)(?:checkout|backoffice|identity|money-moves)(?:\/|$)/.source;

function glob(path) {
  return path.endsWith(".ts") ? path : `${path}/**`;
}

/** Test code: files named *.test.ts(x), test support (the testing/ folders: their own rule, below), the e2e suite and the scripts. */
const TEST_FILES = ["**/*.test.ts", "**/*.test.tsx", "**/testing/**", "e2e/**", "scripts/**"];

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    // Type-aware rules: a promise nobody awaits (a lost error, a write that may not happen) and a
    // promise where a plain value is expected (an async handler whose rejection nobody sees).
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      // Event handlers and form actions may be async in React: their promise is React's to handle.
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    rules: {
      // An unused variable is usually a bug or dead code; a leading underscore marks intent.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // The layers (docs/contributors/architecture.md) and no import circles. Test code is checked for circles
    // only: a test proves a platform module's effect by driving a domain through it.
    files: ["**/*.ts", "**/*.tsx"],
    // The circle check follows our own modules only: a package is never part of one of ours, and
    // parsing node_modules (PGlite's bundle among them) would multiply the lint's time.
    settings: { "import/ignore": ["node_modules"] },
    rules: {
      "import/no-cycle": ["error", { ignoreExternal: true }],
    },
  },
  {
    files: ["**/*.ts", "**/*.tsx"],
    ignores: TEST_FILES,
    rules: {
      "import/no-restricted-paths": ["error", { basePath: import.meta.dirname, zones: LAYER_ZONES }],
    },
  },
  {
    files: TEST_SUPPORT.map((path) => `${path}/**/*.{ts,tsx}`),
    rules: {
      "import/no-restricted-paths": ["error", { basePath: import.meta.dirname, zones: TEST_SUPPORT_ZONES }],
    },
  },
  {
    files: ["lib/i18n/**/*.{ts,tsx}"],
    ignores: TEST_FILES,
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: I18N_TYPE_ONLY,
              allowTypeImports: true,
              message: "lib/i18n may name a domain's fields and codes (import type), never run its code.",
            },
          ],
        },
      ],
    },
  },
  {
    // Plain JavaScript (config files, the browser scripts in public/) is outside the TypeScript project.
    files: ["**/*.js", "**/*.mjs"],
    rules: Object.fromEntries(TYPED_RULES.map((rule) => [rule, "off"])),
  },
  globalIgnores([
    ".next/**",
    ".next-*/**",
    ".data/**",
    "node_modules/**",
    "next-env.d.ts",
    // The bench's empty page (scripts/bench-checkout.ts) builds into its own folder.
    "scripts/bench/empty-app/.next/**",
    "scripts/bench/empty-app/next-env.d.ts",
    "test-results/**",
    "playwright-report/**",
    "lib/db/migrations/**",
    "lib/sandbox/db/migrations/**",
  ]),
]);
