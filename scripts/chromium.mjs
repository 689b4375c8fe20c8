// Where to find a Chromium that Playwright can drive. Playwright's own browser download is not
// available here, so the end-to-end tests use the distribution's package (Debian: `chromium`).
// Pure on purpose: the caller passes the environment and an `exists` check, so it is unit-tested
// with fakes (scripts/chromium.test.ts).
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";

/**
 * The flags every Chromium the project starts gets (the e2e tests, the bench's Lighthouse): no
 * sandbox (it runs as root in CI), no GPU, and none of Chromium's own traffic (updates, sync,
 * field trials), which this machine's closed network refuses many times a second, on the CPU the
 * measures share.
 */
export const LAUNCH_ARGS = Object.freeze([
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
]);

/** Absolute paths tried, in order, when CHROMIUM_PATH is not set. */
export const FIXED_CANDIDATES = Object.freeze(["/usr/bin/chromium", "/usr/bin/chromium-browser"]);

/** Command names looked up on PATH (like `which`) after the fixed paths. */
export const COMMAND_NAMES = Object.freeze(["chromium", "chromium-browser"]);

/**
 * Chromium's old headless shell (Debian: `chromium-headless-shell`), which Playwright itself uses
 * for headless runs: no browser UI, no WebUI renderer, no GPU process. The browser tests use it
 * before a full Chromium (`headlessShell`); Lighthouse and headed runs need the full browser.
 */
export const HEADLESS_SHELL_PATH = "/usr/bin/chromium-headless-shell";
export const HEADLESS_SHELL_COMMAND = "chromium-headless-shell";

/** True when `file` is a regular file this process may execute. */
export function isExecutableFile(file) {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Every path `findChromium` would try when CHROMIUM_PATH is unset, in order, without duplicates:
 * the fixed paths, then each command name in each PATH directory (as `which` would); with
 * `headlessShell`, the headless shell's path and command first.
 * @param {Record<string, string | undefined>} env
 * @param {{ headlessShell?: boolean }} [options]
 * @returns {string[]}
 */
export function chromiumCandidates(env, { headlessShell = false } = {}) {
  const dirs = (env.PATH ?? "").split(path.delimiter).filter((dir) => path.isAbsolute(dir));
  const search = (fixed, names) => [...fixed, ...names.flatMap((name) => dirs.map((dir) => path.join(dir, name)))];
  const shell = headlessShell ? search([HEADLESS_SHELL_PATH], [HEADLESS_SHELL_COMMAND]) : [];
  return [...new Set([...shell, ...search(FIXED_CANDIDATES, COMMAND_NAMES)])];
}

/** Whether a path found by {@link findChromium} is the headless shell (it cannot run headed). */
export function isHeadlessShell(file) {
  return path.basename(file) === HEADLESS_SHELL_COMMAND;
}

/**
 * Locate Chromium.
 * - CHROMIUM_PATH set (non-blank): that file, or an error if it is not there: an explicit choice
 *   is never silently replaced by another browser.
 * - otherwise the first of `chromiumCandidates(env, options)` that exists.
 * @param {Record<string, string | undefined>} env
 * @param {(file: string) => boolean} [exists]
 * @param {{ headlessShell?: boolean }} [options]
 * @returns {{ path: string, source: "CHROMIUM_PATH" | "search", tried: string[] }
 *   | { path: null, error: string, tried: string[] }}
 */
export function findChromium(env, exists = isExecutableFile, options = {}) {
  const explicit = env.CHROMIUM_PATH?.trim();
  if (explicit) {
    if (exists(explicit)) return { path: explicit, source: "CHROMIUM_PATH", tried: [explicit] };
    return {
      path: null,
      tried: [explicit],
      error: `CHROMIUM_PATH is set to "${explicit}", but no executable file is there.`,
    };
  }
  const tried = chromiumCandidates(env, options);
  const found = tried.find((file) => exists(file));
  if (found) return { path: found, source: "search", tried };
  const error = `Chromium not found: not at ${FIXED_CANDIDATES.join(" or ")}, ` + `and no ${COMMAND_NAMES.join(" or ")} command on PATH.`;
  return { path: null, tried, error };
}

/** What to tell someone who has no Chromium. */
export const INSTALL_HINT =
  "Install Chromium from your distribution (Debian/Ubuntu: `sudo apt-get install chromium`), " +
  "or set CHROMIUM_PATH to a Chromium or Chrome executable. " +
  "(`npx playwright install` is not used: the tests never download a browser.)";
