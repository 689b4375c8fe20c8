// Types for e2e-suite-app.mjs, which stays plain JavaScript so `node scripts/test.mjs` needs no loader.
export type Env = Record<string, string | undefined>;
export function e2ePort(env: Env): number;
export function suiteAppEnv(env: Env): Record<string, string | undefined>;
