// Types for chromium.mjs, which stays plain JavaScript so `node scripts/e2e.mjs` needs no loader.
export type Env = Record<string, string | undefined>;
export type Found = { path: string; source: "CHROMIUM_PATH" | "search"; tried: string[] };
export type NotFound = { path: null; error: string; tried: string[] };

export const LAUNCH_ARGS: readonly string[];
export const FIXED_CANDIDATES: readonly string[];
export const COMMAND_NAMES: readonly string[];
export const HEADLESS_SHELL_PATH: string;
export const HEADLESS_SHELL_COMMAND: string;
export const INSTALL_HINT: string;
export function isExecutableFile(file: string): boolean;
export type FindOptions = { headlessShell?: boolean };
export function chromiumCandidates(env: Env, options?: FindOptions): string[];
export function isHeadlessShell(file: string): boolean;
export function findChromium(env: Env, exists?: (file: string) => boolean, options?: FindOptions): Found | NotFound;
