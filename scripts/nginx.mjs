// Where nginx is, for the production recipe's browser test (e2e/production-recipe.spec.ts) and for
// scripts/e2e.mjs, which installs Debian's package when it runs as root and finds none. Plain
// JavaScript, like chromium.mjs, so `node scripts/e2e.mjs` needs no loader.
import path from "node:path";
import { isExecutableFile } from "./chromium.mjs";

/** Debian's package puts nginx in /usr/sbin, which is not on every user's PATH. */
export const NGINX_DIRS = ["/usr/sbin", "/usr/local/sbin"];

export const NGINX_INSTALL_HINT =
  "The production recipe's test runs nginx: install Debian's package (`sudo apt-get install -y nginx`); " +
  "`npm run test:e2e` does it by itself when run as root on Debian.";

/**
 * The nginx executable on PATH or in the sbin folders; null when there is none.
 *
 * @param {Record<string, string | undefined>} env
 * @param {(file: string) => boolean} [exists]
 * @returns {string | null}
 */
export function findNginx(env, exists = isExecutableFile) {
  const dirs = [...(env.PATH ?? "").split(path.delimiter), ...NGINX_DIRS].filter((dir) => path.isAbsolute(dir));
  return dirs.map((dir) => path.join(dir, "nginx")).find((file) => exists(file)) ?? null;
}
