import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const TYPED_RULES = ["@typescript-eslint/no-floating-promises", "@typescript-eslint/no-misused-promises"];

// ---------------------------------------------------------------------------------------------
// Layers (docs/contributors/architecture.md): each folder may import its own layer and the layers below it,
// never above. Checked by import/no-restricted-paths; import circles by import/no-cycle.
// ---------------------------------------------------------------------------------------------
const ENTRY = ["app", "proxy.ts", "instrumentation.ts", "lib/startup.ts"];
const UI = ["components"];
const FEATURE = ["lib/backoffice", "lib/operator", "lib/demo", "lib/docs"];
const CORE = ["lib/checkout", "lib/embed", "lib/theme", "lib/identity"];
const SANDBOX = ["lib/sandbox"];
const COMPOSITION = ["lib/app-context.ts", "lib/composition"];
const SHARED = ["lib/financing", "lib/partners", "lib/mail", "lib/i18n", "lib/openapi", "lib/audit", "lib/money-moves"];
const PLATFORM = [
  "lib/db",
  "lib/http",
  "lib/security",
  "lib/logging",
  "lib/logger.ts",
  "lib/app-error.ts",
  "lib/ops",
  "lib/validation",
  "lib/validated-action.ts",
  "lib/config",
  "lib/text",
  "lib/process",
];

/** Each layer and what it must not import (everything above it, and what sits beside it apart). */
const LAYER_ZONES = [
  {
    target: ["lib/**", "components/**"],
    from: ENTRY,
    message: "lib/ and components/ never import app/ or the other entry code (proxy.ts, instrumentation.ts, lib/startup.ts).",
  },
  { target: "lib/**", from: UI, message: "lib/ never imports components/." },
  {
    target: PLATFORM.map(glob),
    from: [...ENTRY, ...UI, ...FEATURE, ...CORE, ...SANDBOX, ...COMPOSITION, ...SHARED],
    message: "Platform code imports no domain: let the domain register with it instead.",
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
      "Core domains (checkout, embed, theme) never import a feature domain (back-office, operator, demo, docs), the sandbox, components/ or app/.",
  },
  {
    target: SANDBOX.map(glob),
    from: [...ENTRY, ...UI, ...FEATURE, ...CORE, ...COMPOSITION, "lib/partners", "lib/mail", "lib/i18n"],
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
    message: "Feature domains never import app/, proxy.ts or instrumentation.ts.",
  },
];

function glob(path) {
  return path.endsWith(".ts") ? path : `${path}/**`;
}

/** Test code: files named *.test.ts(x), test support (any testing/ folder), the e2e suite and the scripts. */
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
    files: ["lib/i18n/**/*.ts"],
    ignores: TEST_FILES,
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                "@/lib/checkout/*",
                "@/lib/checkout/**",
                "@/lib/backoffice/*",
                "@/lib/backoffice/**",
                "@/lib/identity/*",
                "@/lib/identity/**",
                "@/lib/money-moves/*",
                "@/lib/money-moves/**",
              ],
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
