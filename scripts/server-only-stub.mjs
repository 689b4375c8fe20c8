/**
 * `node --import ./scripts/server-only-stub.mjs`: for a script that runs server modules outside
 * Next (`npm run sandbox`, `npm run bench:webhooks`). Modules with a connection or I/O start with
 * `import "server-only"`, which throws anywhere but in React Server Components; here, as under
 * Vitest (vitest.config.ts), it resolves to an empty module instead: a script is server code.
 */
import { register } from "node:module";

const hooks = `export async function resolve(specifier, context, next) {
  return specifier === "server-only" ? { url: "data:text/javascript,export {};", shortCircuit: true } : next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
