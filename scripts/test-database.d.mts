// Types for test-database.mjs, which stays plain JavaScript so `node scripts/e2e.mjs` needs no loader.
export const LOCAL_TEST_DATABASE_URL: string;
export function findTestDatabase(
  env: Record<string, string | undefined>,
  probe?: (url: string, timeoutS: number) => Promise<void>,
  timeoutS?: number,
): Promise<{ url: string | undefined; reason: string }>;
export function queryOnce(url: string, timeoutS: number): Promise<void>;
