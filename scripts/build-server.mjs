/**
 * `npm run build`'s second step: compiles the server entry (server.ts and the few platform modules it
 * imports: lib/ops/app-server.ts and its steps) into one JavaScript module, `.next/server-entry.mjs`,
 * which `npm run serve` runs with plain `node`. Running the TypeScript entry through tsx instead
 * kept tsx's and the server-only stub's module hooks (a loader thread) alive for the whole life of
 * the server: 130–150 MB more resident memory under load, measured side by side (docs/contributors/performance.md).
 * Packages stay imports (Next, pino, prom-client are loaded from node_modules as usual); the
 * project's `@/` paths are resolved through tsconfig.json; `server-only` becomes an empty module
 * (outside Next it would throw).
 */
import { build } from "esbuild";

export const SERVER_ENTRY_OUTFILE = ".next/server-entry.mjs";

await build({
  entryPoints: ["server.ts"],
  outfile: SERVER_ENTRY_OUTFILE,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  alias: { "server-only": "./scripts/empty-module.mjs" },
  logLevel: "warning",
});
