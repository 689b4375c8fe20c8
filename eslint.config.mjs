import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const TYPED_RULES = ["@typescript-eslint/no-floating-promises", "@typescript-eslint/no-misused-promises"];

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
