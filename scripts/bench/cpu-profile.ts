/**
 * Reading a V8 CPU profile (`node --cpu-prof`) for the benches' summaries
 * (scripts/bench/cpu-profile-summary.ts, scripts/bench/cpu-profile-steps.ts): its samples with their
 * stacks and times, each frame's source found through the source map beside its file (Next's
 * runtime and the app's chunks are minified bundles, where a file says nothing of what runs), and
 * the share of the work a sample belongs to.
 */
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

export interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  /** µs on the machine's monotonic clock (process.hrtime's in any process). */
  startTime: number;
}

/** V8's pseudo-frames: a sample in one of them has no JavaScript stack. */
export const PSEUDO = new Set(["(idle)", "(program)", "(garbage collector)", "(root)"]);

/** A step of a journey as the journey bench saw it (its steps.json): when it started and ended, on the profile's clock. */
export interface StepWindow {
  /** The concurrency it ran at (0: the warm-up). */
  customers: number;
  step: string;
  fromUs: number;
  toUs: number;
}

export interface Sample {
  /** When it was taken, µs on the monotonic clock. */
  atUs: number;
  /**
   * The CPU time it stands for: the profile's sampling interval (the median gap between samples),
   * not its own gap, which on a busy machine also holds the time the process waited for a core.
   */
  us: number;
  /** Leaf first. */
  stack: ProfileNode[];
}

export function readProfile(file: string): Profile {
  return JSON.parse(readFileSync(file, "utf8")) as Profile;
}

/** Every sample with its stack, in order. */
export function samplesOf(profile: Profile): Sample[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const gaps = profile.timeDeltas.toSorted((a, b) => a - b);
  const us = gaps[gaps.length >> 1] ?? 0;
  let atUs = profile.startTime;
  return profile.samples.map((id, i) => {
    atUs += profile.timeDeltas[i] ?? 0;
    const stack: ProfileNode[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!);
    // The root frame is no code of anyone's.
    if (stack.at(-1)?.callFrame.functionName === "(root)" && stack.length > 1) stack.pop();
    return { atUs, us, stack };
  });
}

/** Where a frame comes from: a package under node_modules, Next's compiled chunks, Node itself, or a file. */
export function origin(url: string): string {
  if (!url) return "(native / V8)";
  if (url.startsWith("node:")) return url;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const chunk = /\.next[^/]*\/(server\/.*)$/.exec(url);
  return chunk ? `app ${chunk[1]}` : url;
}

export const label = (node: ProfileNode) =>
  `${node.callFrame.functionName || "(anonymous)"} ${origin(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;

/** A bundle's source map and the folder its relative sources start from, read once; undefined where the file has none. */
const maps = new Map<string, { map: SourceMap; dir: string } | undefined>();

function mapOf(url: string): { map: SourceMap; dir: string } | undefined {
  if (maps.has(url)) return maps.get(url);
  let found: { map: SourceMap; dir: string } | undefined;
  try {
    const file = url.startsWith("file:") ? fileURLToPath(url) : url;
    if (existsSync(`${file}.map`)) {
      found = { map: new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8")) as never), dir: path.dirname(file) };
    }
  } catch {
    // No usable map: the frame keeps its bundle's name.
  }
  maps.set(url, found);
  return found;
}

interface Original {
  /** The source file, and the line there (1-based) where the function starts. */
  source: string;
  line: number;
  /** The function's name in its source, where the bundle's is minified. */
  name: string;
}

/** The source a frame's code was bundled from (through its file's source map) and its name there, or its own. */
export function originalOf(node: ProfileNode): Original {
  const { url, lineNumber, columnNumber, functionName } = node.callFrame;
  const own = { source: url, line: lineNumber + 1, name: functionName || "(anonymous)" };
  if (!url || url.startsWith("node:")) return own;
  const found = mapOf(url);
  const entry = found?.map.findEntry(lineNumber, columnNumber) as
    { originalSource?: string; originalLine?: number; name?: string } | undefined;
  if (!found || !entry?.originalSource) return own;
  // A relative source is the map's file's neighbour (Next's own `src/server/…` are under
  // node_modules/next, a chunk's `../../lib/…` ours): resolved, it says whose it is.
  const source = /^[a-z]+:/i.test(entry.originalSource) ? entry.originalSource : path.resolve(found.dir, entry.originalSource);
  return { source, line: (entry.originalLine ?? 0) + 1, name: entry.name ?? own.name };
}

export const sourceOf = (node: ProfileNode) => originalOf(node).source;

/** The shares of the work: what a maintainer could act on, each its own line. */
export const CATEGORIES = [
  "React (render, Flight)",
  "Next (routing, render, streams)",
  "our code",
  "DB driver (postgres.js, drizzle, PGlite)",
  "pino",
  "undici",
  "zod",
  "other packages",
  "Node (HTTP, sockets, timers)",
  "GC",
  "V8 (compile, runtime)",
] as const;
export type Category = (typeof CATEGORIES)[number];

const PACKAGE_CATEGORY: [RegExp, Category][] = [
  // Next's copies of React, its runtime's sources named webpack://next/./dist/compiled/react-dom/…
  [/dist\/compiled\/(react|react-dom|react-server-dom-[a-z]+)(-experimental)?\//, "React (render, Flight)"],
  [/node_modules\/(react|react-dom|scheduler)\//, "React (render, Flight)"],
  [/(node_modules\/next\/|webpack:\/\/next\/)/, "Next (routing, render, streams)"],
  [/node_modules\/(postgres|drizzle-orm|@electric-sql\/pglite)\//, "DB driver (postgres.js, drizzle, PGlite)"],
  // drizzle's own sources (src/sql/sql.ts…), which the app's chunk maps name without the package's
  // folder; Next's src/api/ the one other source named so.
  [/node_modules\/src\/(?!api\/)/, "DB driver (postgres.js, drizzle, PGlite)"],
  [
    /node_modules\/(pino|pino-std-serializers|sonic-boom|thread-stream|fast-redact|quick-format-unescaped|safe-stable-stringify|atomic-sleep|on-exit-leak-free)\//,
    "pino",
  ],
  [/(node_modules\/undici\/|^node:internal\/deps\/undici)/, "undici"],
  [/node_modules\/zod\//, "zod"],
  [/node_modules\//, "other packages"],
];

/**
 * The share a sample belongs to: that of the first frame from its leaf that is JavaScript of a
 * package or of ours (found through the source maps), so that a builtin (a JSON.stringify, a
 * stream's write) counts for the code that called it; Node's own code only when nothing else is
 * on the stack (an HTTP parse, a timer).
 */
export function categoryOf(stack: ProfileNode[]): Category {
  const leaf = stack[0]?.callFrame.functionName ?? "";
  if (leaf === "(garbage collector)") return "GC";
  if (leaf === "(program)") return "V8 (compile, runtime)";
  let node = false;
  for (const frame of stack) {
    const source = sourceOf(frame);
    if (!source) continue;
    if (source.startsWith("node:") && !source.startsWith("node:internal/deps/undici")) {
      node = true;
      continue;
    }
    return PACKAGE_CATEGORY.find(([pattern]) => pattern.test(source))?.[1] ?? "our code";
  }
  return node ? "Node (HTTP, sockets, timers)" : "V8 (compile, runtime)";
}
