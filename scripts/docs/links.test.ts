import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { checkCodePaths, checkLinks, markdownFiles } from "./links";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

describe("the repository's Markdown", () => {
  const files = markdownFiles(ROOT);

  it("is README.md, docs/ and examples/", () => {
    expect(files).toContain("README.md");
    expect(files).toContain("docs/operators/configuration.md");
  });

  it("links only to files and headings that exist", async () => {
    expect(await checkLinks(ROOT, files)).toEqual([]);
  });

  it("names only code paths that exist", () => {
    expect(checkCodePaths(ROOT, files)).toEqual([]);
  });
});

describe("the checks", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "links-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(path.join(root, "docs"));
  mkdirSync(path.join(root, "lib"));
  writeFileSync(path.join(root, "lib", "real.ts"), "export {};\n");
  writeFileSync(path.join(root, "docs", "other.md"), "# Other\n\n## A part\n");
  writeFileSync(
    path.join(root, "README.md"),
    [
      "# Read me",
      "",
      "[fine](docs/other.md#a-part) [fine](#read-me) [fine](lib/real.ts) `lib/real.ts` `lib/*.ts` `$DATA_DIR/pglite` [web](https://example.invalid/x)",
      "",
      "[gone](docs/gone.md) [no heading](docs/other.md#no-such-part) [no anchor](#nowhere) [no code](lib/gone.ts)",
      "",
      "`lib/renamed.ts` and `docs/gone/`",
      "",
      "```sh",
      "cat lib/in-a-code-block.ts",
      "```",
    ].join("\n"),
  );
  const files = markdownFiles(root);

  it("find a missing file, a missing heading here or there, and a missing code path, by line", async () => {
    expect(files).toEqual(["README.md", "docs/other.md"]);
    expect(await checkLinks(root, files)).toEqual([
      { where: "README.md:5", message: "Cannot find file `docs/gone.md`" },
      { where: "README.md:5", message: "Cannot find file `lib/gone.ts`" },
      { where: "README.md:5", message: "Cannot find heading for `#no-such-part` in `docs/other.md`" },
      { where: "README.md:5", message: "Cannot find heading for `#nowhere`" },
    ]);
    expect(checkCodePaths(root, files)).toEqual([
      { where: "README.md:7", message: "Cannot find `lib/renamed.ts`" },
      { where: "README.md:7", message: "Cannot find `docs/gone/`" },
    ]);
  });
});
