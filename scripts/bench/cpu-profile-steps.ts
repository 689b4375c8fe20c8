/**
 * The app's CPU profile from `BENCH_CPU_PROF=<dir> npm run bench:journey`, cut by the journey's
 * steps: per concurrency, the app's CPU per journey by share (React, Next, our code, the database
 * driver, pino, undici, zod, GC…), and at one customer, where the steps follow each other, the same
 * per step, with the functions that cost the most in each. A sample counts in the step whose window
 * (steps.json, on the monotonic clock the profile uses) holds it: the background work (the webhook,
 * the status reads, the notifications) counts in the step it overlaps, as in the bench's own figures.
 *
 * Usage: `node --import tsx scripts/bench/cpu-profile-steps.ts <dir>/<database>-<index> [functions]`
 * (`functions`: how many of each step's costliest functions to list, 6).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import {
  CATEGORIES,
  categoryOf,
  originalOf,
  PSEUDO,
  readProfile,
  samplesOf,
  type Category,
  type ProfileNode,
  type StepWindow,
} from "./cpu-profile";

const [dir, functionsArg] = process.argv.slice(2);
if (!dir) throw new Error("usage: cpu-profile-steps.ts <dir> [functions]");
const FUNCTIONS = Number(functionsArg ?? 6);
const profiles = readdirSync(dir).filter((name) => name.endsWith(".cpuprofile"));
if (profiles.length !== 1) throw new Error(`${dir}: ${profiles.length} .cpuprofile files, not one (profile each run into a fresh folder)`);
const file = profiles[0]!;
const windows = (JSON.parse(readFileSync(path.join(dir, "steps.json"), "utf8")) as StepWindow[]).filter((w) => w.customers > 0);
const samples = samplesOf(readProfile(path.join(dir, file)));

/** Per share and per function (self time), in µs. */
class Tally {
  readonly byCategory = new Map<Category, number>();
  readonly byFunction = new Map<string, number>();
  total = 0;
  add(stack: ProfileNode[], us: number): void {
    const category = categoryOf(stack);
    this.byCategory.set(category, (this.byCategory.get(category) ?? 0) + us);
    const leaf = originalOf(stack[0]!);
    const name = `${leaf.name} ${shortSource(leaf.source)}${leaf.source ? `:${leaf.line}` : ""}`;
    this.byFunction.set(name, (this.byFunction.get(name) ?? 0) + us);
    this.total += us;
  }
}

function shortSource(source: string): string {
  if (!source) return "";
  return source
    .replace(/^webpack:\/\/next\/\.\//, "next/")
    .replace(/^.*node_modules\//, "")
    .replace(/^(\.\.\/)+/, "")
    .replace(/^file:\/\/.*?\/(\.next|node_modules)\//, "$1/");
}

const levels = [...new Set(windows.map((w) => w.customers))];
const span = (customers: number) => {
  const own = windows.filter((w) => w.customers === customers);
  return [Math.min(...own.map((w) => w.fromUs)), Math.max(...own.map((w) => w.toUs))] as const;
};
const journeysAt = (customers: number) => windows.filter((w) => w.customers === customers && w.step === "API GET").length;

const perLevel = new Map(levels.map((customers) => [customers, new Tally()]));
const perStep = new Map<string, Tally>();
// At one customer the windows follow each other: each sample is in one step's window, or between two.
const sequential = windows.filter((w) => w.customers === 1).sort((a, b) => a.fromUs - b.fromUs);
function stepAt(atUs: number): string {
  let low = 0;
  let high = sequential.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const window = sequential[mid]!;
    if (atUs < window.fromUs) high = mid - 1;
    else if (atUs > window.toUs) low = mid + 1;
    else return window.step;
  }
  return "(between steps)";
}

for (const sample of samples) {
  const leaf = sample.stack[0]!.callFrame.functionName;
  if (leaf === "(idle)" || (PSEUDO.has(leaf) && leaf !== "(program)" && leaf !== "(garbage collector)")) continue;
  for (const customers of levels) {
    const [from, to] = span(customers);
    if (sample.atUs < from || sample.atUs > to) continue;
    perLevel.get(customers)!.add(sample.stack, sample.us);
    if (customers === 1) {
      const step = stepAt(sample.atUs);
      if (!perStep.has(step)) perStep.set(step, new Tally());
      perStep.get(step)!.add(sample.stack, sample.us);
    }
  }
}

const ms = (us: number, n: number) => (us / 1000 / Math.max(1, n)).toFixed(1).padStart(7);
const header = `${"".padEnd(18)} ${"CPU".padStart(7)}  ${CATEGORIES.map((c) => c.split(" ")[0]!.slice(0, 7).padStart(7)).join(" ")}`;
const row = (name: string, tally: Tally, n: number) =>
  `${name.padEnd(18)} ${ms(tally.total, n)}  ${CATEGORIES.map((c) => ms(tally.byCategory.get(c) ?? 0, n)).join(" ")}`;

process.stdout.write(`Shares: ${CATEGORIES.join(" · ")}\n\nApp CPU per journey (ms, profile samples), by concurrency\n${header}\n`);
for (const customers of levels) {
  process.stdout.write(`${row(`${customers} customers (${journeysAt(customers)})`, perLevel.get(customers)!, journeysAt(customers))}\n`);
}
if (perStep.size > 0) {
  const journeys = journeysAt(1);
  process.stdout.write(`\nAt 1 customer, per step and journey (ms; ${journeys} journeys)\n${header}\n`);
  const order = [...new Set(sequential.map((w) => w.step)), "(between steps)"];
  for (const step of order) if (perStep.has(step)) process.stdout.write(`${row(step, perStep.get(step)!, journeys)}\n`);
  for (const step of order) {
    const tally = perStep.get(step);
    if (!tally) continue;
    process.stdout.write(`\n${step}: costliest functions (self, ms per journey)\n`);
    for (const [name, us] of [...tally.byFunction].sort((a, b) => b[1] - a[1]).slice(0, FUNCTIONS)) {
      process.stdout.write(`  ${ms(us, journeys)}  ${name}\n`);
    }
  }
}
