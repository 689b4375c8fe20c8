import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "./fixtures";

// The partner API key is a server secret: it must never reach what is shipped to browsers.
// Runs after the web server has built the app (`next build`), so `.next/static/` is this build's.
const STATIC_DIR = fileURLToPath(new URL(`../${process.env.NEXT_DIST_DIR || ".next"}/static/`, import.meta.url));

/** What must not appear, each with a label that is safe to print (never the key itself). */
function forbidden(): { label: string; value: string }[] {
  const list = [
    { label: '"fk_test_" (sandbox key prefix)', value: "fk_test_" },
    { label: '"fk_live_" (live key prefix)', value: "fk_live_" },
  ];
  const key = process.env.FINANCING_API_KEY?.trim();
  if (key) list.push({ label: "the value of FINANCING_API_KEY", value: key });
  return list;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

test.describe("what is shipped to browsers", () => {
  test("no static asset contains a partner API key", async () => {
    const files = await filesUnder(STATIC_DIR);
    const leaks: string[] = [];
    for (const file of files) {
      const text = (await readFile(file)).toString("latin1");
      for (const { label, value } of forbidden()) {
        if (text.includes(value)) leaks.push(`${path.relative(STATIC_DIR, file)} contains ${label}`);
      }
    }

    // Guard against a vacuous pass (wrong directory, nothing built).
    expect(files.filter((file) => file.endsWith(".js")).length, `JavaScript files under ${STATIC_DIR}`).toBeGreaterThan(0);
    expect(leaks).toEqual([]);
  });

  test("the home page's HTML contains no partner API key", async ({ request }) => {
    const response = await request.get("/", { headers: { "Accept-Language": "en" } });
    expect(response.ok()).toBe(true);
    const html = await response.text();
    expect(html).toContain("Pay your trip in installments");

    const found = forbidden().filter(({ value }) => html.includes(value));
    expect(found.map(({ label }) => label)).toEqual([]);
  });
});
