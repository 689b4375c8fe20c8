import { createSandbox, type Sandbox } from "./app";

// On globalThis: Next's dev server re-evaluates modules on edits, and the sandbox's state (its
// operations and test clock) must survive that, as it would in a real separate service.
const globalForSandbox = globalThis as typeof globalThis & { __travelFinancingSandbox?: Sandbox };

/** The sandbox this app serves under /sandbox: one per process, created on first use. */
export function getSandbox(): Sandbox {
  globalForSandbox.__travelFinancingSandbox ??= createSandbox();
  return globalForSandbox.__travelFinancingSandbox;
}
