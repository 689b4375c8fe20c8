import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./", import.meta.url)),
      // `server-only` throws outside React Server Components; unit tests run the server code directly.
      "server-only": fileURLToPath(new URL("./lib/testing/server-only.ts", import.meta.url)),
    },
  },
  test: {
    include: ["{app,components,lib,scripts}/**/*.test.{ts,tsx}"],
    environment: "node",
    // PGlite boots a WebAssembly PostgreSQL: give slow shared machines room.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
