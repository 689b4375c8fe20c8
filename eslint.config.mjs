import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      // An unused variable is usually a bug or dead code; a leading underscore marks intent.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  globalIgnores([".next/**", ".next-*/**", ".data/**", "node_modules/**", "next-env.d.ts", "test-results/**", "playwright-report/**", "lib/db/migrations/**"]),
]);
