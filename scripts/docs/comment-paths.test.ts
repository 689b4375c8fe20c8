import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { checkCommentPaths, commentsOf, pathsIn, sourceFiles } from "./comment-paths";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

describe("the code's comments", () => {
  const files = sourceFiles(ROOT);

  it("are read from every tracked source file", () => {
    expect(files).toContain("server.ts");
    expect(files).toContain("lib/ops/error-pages.ts");
    expect(files).toContain("components/ui/button.tsx");
    expect(files).toContain("scripts/build-server.mjs");
  });

  it("name only repository paths that exist", () => {
    expect(checkCommentPaths(ROOT, files)).toEqual([]);
  });
});

describe("the paths a comment names", () => {
  it("are the repository's folders, whatever follows them", () => {
    expect(pathsIn("see lib/ops/error-pages.ts: the guard (and app/layout.tsx), then docs/contributors/tests.md.")).toEqual([
      "lib/ops/error-pages.ts",
      "app/layout.tsx",
      "docs/contributors/tests.md",
    ]);
    expect(pathsIn("`e2e/support/` and @/lib/config/env")).toEqual(["e2e/support", "lib/config/env"]);
  });

  it("keep dynamic segments and route groups", () => {
    expect(pathsIn("app/admin/partners/[id]/page.tsx, app/(checkout)/checkout/[sessionId], app/docs/[[...slug]]")).toEqual([
      "app/admin/partners/[id]/page.tsx",
      "app/(checkout)/checkout/[sessionId]",
      "app/docs/[[...slug]]",
    ]);
  });

  it("stop at a glob or an ellipsis", () => {
    expect(pathsIn("lib/** and lib/ops/*.ts, app/admin/... and app/admin/…")).toEqual(["lib/ops", "app/admin", "app/admin"]);
  });

  it("are not parts of URLs or of other paths", () => {
    expect(pathsIn("https://nextjs.org/docs/app/guides, /docs/api, node_modules/next/dist/docs/index.md, mylib/x.ts")).toEqual([]);
  });
});

describe("the comments of a source file", () => {
  it("are its comments, not its strings, templates or JSX text", () => {
    const source = [
      'const url = "https://example.com//lib/not-a-comment.ts";',
      "const t = `${url}// lib/nor-this.ts`;",
      "// lib/one.ts",
      "function f() {",
      "  return /* lib/two.ts */ 1;",
      "  // lib/three.ts, before a closing brace",
      "}",
    ].join("\n");
    expect(commentsOf(source, "a.ts").map((comment) => [comment.line, comment.text])).toEqual([
      [3, "// lib/one.ts"],
      [5, "/* lib/two.ts */"],
      [6, "// lib/three.ts, before a closing brace"],
    ]);
    const page = "export const P = () => (\n  <p>\n    Text // lib/text-not-comment.ts\n    {/* lib/four.ts */}\n  </p>\n);\n";
    expect(commentsOf(page, "p.tsx").map((comment) => comment.text)).toEqual(["/* lib/four.ts */"]);
  });
});

describe("the check", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "comment-paths-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(path.join(root, "lib/ops"), { recursive: true });
  writeFileSync(path.join(root, "lib/ops/here.ts"), "export {};\n");

  it("says where a comment names a path that does not exist", () => {
    writeFileSync(
      path.join(root, "lib/ops/user.ts"),
      "/**\n * Uses lib/ops/here.ts and lib/ops/here (a module by its name),\n * and lib/ops/moved.ts.\n */\nexport {};\n",
    );
    expect(checkCommentPaths(root, ["lib/ops/user.ts"])).toEqual([{ where: "lib/ops/user.ts:3", path: "lib/ops/moved.ts" }]);
  });
});
