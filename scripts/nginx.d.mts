// Types for nginx.mjs, which stays plain JavaScript so `node scripts/e2e.mjs` needs no loader.
export const NGINX_DIRS: readonly string[];
export const NGINX_INSTALL_HINT: string;
export function findNginx(env: Record<string, string | undefined>, exists?: (file: string) => boolean): string | null;
