import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * The QA guide's spec to copy (docs/qa/playwright-spec.md) is e2e/qa-guide.spec.ts, one of the
 * project's own browser tests, so that what QA teams copy is what passes here: the two never drift.
 */
const root = new URL("..", import.meta.url);
const read = (file: string) => readFileSync(new URL(file, root), "utf8");

/** The first ```ts block after the heading. */
function codeBlockAfter(markdown: string, heading: string): string | undefined {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) return undefined;
  return /\n```ts\n([\s\S]*?)\n```\n/.exec(markdown.slice(start))?.[1];
}

describe("the QA guide's spec to copy", () => {
  it("is e2e/qa-guide.spec.ts, as it is", () => {
    const shown = codeBlockAfter(read("docs/qa/playwright-spec.md"), "## The spec");
    expect(shown, "no ```ts block under the QA guide's heading").toBeDefined();
    expect(shown).toBe(read("e2e/qa-guide.spec.ts").replace(/\n$/, ""));
  });

  it("imports nothing but Playwright, so it can be copied into another project", () => {
    const imports = [...read("e2e/qa-guide.spec.ts").matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
    expect(imports).toEqual(["@playwright/test"]);
  });
});
