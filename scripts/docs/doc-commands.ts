/**
 * The commands a guide asks its reader to run, read from its Markdown so that a test can run them
 * as written (e2e/integrators-tutorial.spec.ts runs the integrators' tutorial): a guide whose
 * commands break fails its test instead of its reader.
 *
 * A code block is picked by words after its language, which GitHub and the app's guide pages do
 * not show:
 *
 *   ```sh step=open-session        a command the test runs, by that name
 *   ```sh step=receiver background a command left running (a server), stopped at the end
 *   ```js file=receiver.mjs        a file the reader saves, written as it is
 *
 * Other `sh` blocks are commands the test cannot run as they are (installing, starting the app it
 * already runs): each test lists them, so a new one is a choice, never forgotten.
 */
import type { Code, Nodes } from "mdast";
import { remark } from "remark";

export interface DocBlock {
  lang: string;
  /** `step=open-session background` → `{ step: "open-session", background: true }`. */
  meta: Record<string, string | true>;
  value: string;
  /** The line its fence opens on, for messages. */
  line: number;
}

function metaOf(meta: string | null | undefined): DocBlock["meta"] {
  const entries = (meta ?? "")
    .split(/\s+/)
    .filter(Boolean)
    .map((word): [string, string | true] => {
      const at = word.indexOf("=");
      return at === -1 ? [word, true] : [word.slice(0, at), word.slice(at + 1)];
    });
  return Object.fromEntries(entries);
}

/** Every fenced code block of the Markdown, in order. */
export function docBlocks(markdown: string): DocBlock[] {
  const blocks: DocBlock[] = [];
  const visit = (node: Nodes) => {
    if (node.type === "code") {
      const code = node as Code;
      blocks.push({ lang: code.lang ?? "", meta: metaOf(code.meta), value: code.value, line: code.position?.start.line ?? 0 });
    }
    if ("children" in node) for (const child of node.children) visit(child);
  };
  visit(remark().parse(markdown));
  return blocks;
}

/** The blocks a test runs, by step name; throws on a name used twice. */
export function stepsOf(blocks: readonly DocBlock[]): Map<string, DocBlock> {
  const steps = new Map<string, DocBlock>();
  for (const block of blocks) {
    const step = block.meta.step;
    if (typeof step !== "string") continue;
    if (steps.has(step)) throw new Error(`step=${step} is on two blocks (lines ${steps.get(step)!.line} and ${block.line})`);
    steps.set(step, block);
  }
  return steps;
}

/** The blocks the reader saves as files, by file name. */
export function filesOf(blocks: readonly DocBlock[]): Map<string, string> {
  return new Map(blocks.flatMap((block) => (typeof block.meta.file === "string" ? [[block.meta.file, block.value] as const] : [])));
}

/** The shell blocks no test runs (no `step=`): their first lines. */
export function unrunShellBlocks(blocks: readonly DocBlock[]): string[] {
  return blocks.filter((block) => block.lang === "sh" && block.meta.step === undefined).map((block) => block.value.split("\n")[0]!);
}
