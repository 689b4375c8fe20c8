/**
 * Process-wide state: one value per process, whichever copy of a module asks for it.
 *
 * Why on `globalThis`: Next bundles the start-up code (instrumentation), the proxy, each route and
 * the server entry (server.ts, compiled apart) separately, so a module-level variable exists once
 * per bundle, and Next's dev server re-evaluates modules on edits. What must be one per process (the
 * database, the logger, the registries the start-up code fills and the routes read) is kept on
 * `globalThis` under a `Symbol.for` key, which every copy of a module finds. This is the only place
 * that casts `globalThis`; the value's type is the caller's, as it was with the hand-cast slots.
 */

/** A process-wide value that may be absent, set, replaced or cleared (a registered renderer, an opening database). */
export interface ProcessSlot<T> {
  get(): T | undefined;
  set(value: T): void;
  clear(): void;
}

const slots = globalThis as unknown as Record<symbol, unknown>;

function keyOf(name: string): symbol {
  return Symbol.for(`travel-checkout.${name}`);
}

/** The slot named `name` (one name, one type: name it after its module, e.g. `"ops.readiness-checks"`). */
export function processSlot<T>(name: string): ProcessSlot<T> {
  const key = keyOf(name);
  return {
    get: () => slots[key] as T | undefined,
    set: (value) => {
      slots[key] = value;
    },
    clear: () => {
      delete slots[key];
    },
  };
}

/** The value named `name`, made by `create` the first time any copy of the calling module asks. */
export function processSingleton<T>(name: string, create: () => T): T {
  const key = keyOf(name);
  if (!(key in slots)) slots[key] = create();
  return slots[key] as T;
}
