/**
 * The repository paths the code's comments name (`lib/ops/error-pages.ts`, `app/admin/operations/[id]/page.tsx`,
 * `e2e/support/`), checked to exist: comments name the code they lean on far more often than they
 * import it, and a moved file must not leave them pointing at nothing. The docs' own paths are
 * checked by scripts/docs/links.ts.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** The folders whose paths a comment may name (from the repository's root). */
export const CHECKED_ROOTS = ["lib", "app", "components", "scripts", "docs", "e2e"] as const;

/** The source files whose comments are read: tracked TypeScript and ES modules. */
export function sourceFiles(root: string): string[] {
  return execFileSync("git", ["ls-files", "-z", "--", "*.ts", "*.tsx", "*.mjs"], { cwd: root, encoding: "utf8" })
    .split("\0")
    .filter((file) => file !== "" && existsSync(path.join(root, file)))
    .sort();
}

/** Each comment of a source text, with the line it starts on (what strings, templates and JSX text hold is not a comment). */
export function commentsOf(source: string, fileName: string): { text: string; line: number }[] {
  const kind = fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : fileName.endsWith(".mjs") ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, kind);
  const ranges = new Map<number, ts.CommentRange>();
  const collect = (found: ts.CommentRange[] | undefined) => found?.forEach((range) => ranges.set(range.pos, range));
  // Every token's leading comments (a comment before a closing brace is no node's), and trailing
  // ones; JSX text is the page's text, not a comment, even where it reads like one.
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.JsxText) return;
    collect(ts.getLeadingCommentRanges(source, node.pos));
    collect(ts.getTrailingCommentRanges(source, node.end));
    node.getChildren(file).forEach(visit);
  };
  visit(file);
  return [...ranges.values()]
    .sort((a, b) => a.pos - b.pos)
    .map((range) => ({ text: source.slice(range.pos, range.end), line: file.getLineAndCharacterOfPosition(range.pos).line + 1 }));
}

// A path's segments: `[id]`, `[...slug]`, `(group)`, a name (`*` and `**` of a glob included).
const SEGMENT = String.raw`(?:\[{1,2}(?:\.\.\.)?[\w-]+\]{1,2}|\([\w-]+\)|[\w*@.-]+)`;
const PATH = new RegExp(String.raw`(?<![\w./@-])(?:@/)?((?:${CHECKED_ROOTS.join("|")})(?:/${SEGMENT})+/?)`, "g");

/**
 * The repository paths a comment names, as they are to exist: a glob (`lib/**`, `lib/*.ts`) by its
 * folder before the first wildcard, `app/admin/...` by `app/admin`, trailing punctuation (`.`, `:`)
 * dropped.
 */
export function pathsIn(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(PATH)) {
    const segments: string[] = [];
    for (const segment of match[1]!.replace(/\/$/, "").split("/")) {
      if (/^\.+$/.test(segment) || segment.includes("*")) break;
      segments.push(segment);
    }
    const named = segments.join("/").replace(/[.]+$/, "");
    if (named.includes("/")) found.push(named);
  }
  return found;
}

/** A named path exists as it is, or as a module named without its extension (`lib/startup` for `lib/startup.ts`). */
function exists(root: string, named: string): boolean {
  const full = path.join(root, named);
  if (existsSync(full)) return true;
  return [".ts", ".tsx", ".mjs", ".js", ".md"].some((ext) => existsSync(full + ext) && statSync(full + ext).isFile());
}

export interface CommentPathProblem {
  /** From the root, with the line: `lib/ops/error-pages.ts:12`. */
  where: string;
  path: string;
}

/** The paths named in the files' comments that do not exist. */
export function checkCommentPaths(root: string, files: readonly string[]): CommentPathProblem[] {
  const problems: CommentPathProblem[] = [];
  for (const file of files) {
    const source = readFileSync(path.join(root, file), "utf8");
    // Parsing is the slow part: only a file naming a missing path anywhere (a comment, or a string) is parsed.
    if (pathsIn(source).every((named) => exists(root, named))) continue;
    for (const comment of commentsOf(source, file)) {
      comment.text.split("\n").forEach((text, index) => {
        for (const named of pathsIn(text)) {
          if (!exists(root, named)) problems.push({ where: `${file}:${comment.line + index}`, path: named });
        }
      });
    }
  }
  return problems;
}
