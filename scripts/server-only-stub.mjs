/**
 * `node --import ./scripts/server-only-stub.mjs`: for a script that runs server modules outside
 * Next (`npm run bench:webhooks`, `npm run sandbox`: the sandbox's engine and database modules hold
 * a connection). Those modules start with `import "server-only"`, which throws anywhere but in
 * React Server Components; here, as under Vitest (vitest.config.ts), it resolves to an empty module
 * instead.
 */
import { register } from "node:module";

const hooks = `export async function resolve(specifier, context, next) {
  return specifier === "server-only" ? { url: "data:text/javascript,export {};", shortCircuit: true } : next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
