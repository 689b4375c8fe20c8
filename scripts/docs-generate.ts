/**
 * `npm run docs:generate`: writes the operators' reference pages generated from the code (the
 * configuration reference from the environment schemas, the metrics list from the registry; see
 * scripts/docs/reference-pages.ts). Run it after changing a variable, its description or a metric,
 * and commit the pages: `npm test` fails while a committed page is stale.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { pagePath, REFERENCE_PAGES } from "./docs/reference-pages";

for (const page of REFERENCE_PAGES) {
  const file = pagePath(page.file);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, await page.render());
  process.stdout.write(`wrote ${page.file}\n`);
}
