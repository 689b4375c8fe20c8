/**
 * The links of the repository's Markdown (README.md, docs/, examples/), checked offline:
 *
 * - every relative link to another file resolves, and every `#anchor` to a heading exists, in the
 *   same file or another Markdown file (remark-validate-links, run over all the files at once by
 *   unified-engine, as remark-cli does, so headings in other files are checked too);
 * - every code path the prose names in backticks (`lib/config/env.ts`, `e2e/support/`) exists: the docs
 *   name code far more often than they link to it, and a renamed file must not leave them behind.
 *
 * Links to other sites are not fetched: `npm test` needs no network.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { InlineCode, Nodes } from "mdast";
import { remark } from "remark";
import remarkValidateLinks from "remark-validate-links";
import { engine } from "unified-engine";

type EnginePlugins = NonNullable<Parameters<typeof engine>[0]["plugins"]>;

export interface LinkProblem {
  /** From the root, with the line: `docs/operators/configuration.md:12`. */
  where: string;
  message: string;
}

/** The Markdown files whose links are checked, from `root`: README.md, and every `.md` under docs/ and examples/. */
export function markdownFiles(root: string): string[] {
  const under = (dir: string) =>
    existsSync(path.join(root, dir))
      ? readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
          .filter((file) => file.endsWith(".md"))
          .map((file) => path.join(dir, file))
      : [];
  return [...(existsSync(path.join(root, "README.md")) ? ["README.md"] : []), ...under("docs"), ...under("examples")].sort();
}

/** Relative links and anchors between the files and to any file of the repository. */
export function checkLinks(root: string, files: readonly string[]): Promise<LinkProblem[]> {
  return new Promise((resolve, reject) => {
    engine(
      {
        processor: remark(),
        cwd: root,
        files: [...files],
        // As the engine's plugin (not on the processor) it sees every file of the run: headings in
        // other files are checked too. Its types are unified's plugin types, which the engine's
        // option spells differently.
        plugins: [[remarkValidateLinks, { repository: false, root }]] as unknown as EnginePlugins,
        // Read only: no output written, nothing printed, no configuration or ignore files looked for.
        output: false,
        out: false,
        quiet: true,
        silent: true,
        reporter: () => "",
        detectConfig: false,
        detectIgnore: false,
      },
      (error, _code, context) => {
        if (error) return reject(error);
        const problems = (context?.files ?? []).flatMap((file) =>
          file.messages.map((message) => ({
            where: `${path.relative(root, path.resolve(file.cwd, file.path))}:${message.line ?? "?"}`,
            message: message.reason,
          })),
        );
        resolve(problems.sort((a, b) => a.where.localeCompare(b.where, "en", { numeric: true }) || a.message.localeCompare(b.message)));
      },
    );
  });
}

/** `lib/config/env.ts`, `e2e/support/`, `app/checkout/[sessionId]/page.tsx`: a path from the root, to check. */
function codePathIn(text: string, topLevel: ReadonlySet<string>): string | undefined {
  const value = text.trim();
  // One token with a slash, no placeholder (`$DATA_DIR/…`, `<id>`, `{id}`, `…`) and no glob.
  if (!/^[\w.@[\]-]+\/\S*$/.test(value) || /[*<>{}$…]/.test(value)) return undefined;
  const file = value.replace(/[:#].*$/, "");
  return topLevel.has(file.split("/")[0]!) ? file : undefined;
}

/** Code paths named in backticks, outside code blocks, that do not exist. */
export function checkCodePaths(root: string, files: readonly string[]): LinkProblem[] {
  const topLevel = new Set(readdirSync(root).filter((name) => name !== "node_modules" && !name.startsWith(".")));
  const problems: LinkProblem[] = [];
  for (const file of files) {
    const tree = remark().parse(readFileSync(path.join(root, file), "utf8"));
    const visit = (node: Nodes) => {
      if (node.type === "inlineCode") {
        const codePath = codePathIn((node as InlineCode).value, topLevel);
        if (codePath !== undefined && !existsSync(path.join(root, codePath))) {
          problems.push({ where: `${file}:${node.position?.start.line ?? "?"}`, message: `Cannot find \`${codePath}\`` });
        }
      }
      if ("children" in node) for (const child of node.children) visit(child);
    };
    visit(tree);
  }
  return problems;
}
