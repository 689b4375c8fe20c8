/**
 * Summarises a V8 CPU profile (`node --cpu-prof`, e.g. the app's under `BENCH_CPU_PROF=<dir> npm run
 * bench:checkout`): where the samples fall, by function (self and total time) and by package or
 * source file (self time). Usage: `node --import tsx scripts/bench/cpu-profile-summary.ts <file>
 * [rows] [filter]`, `filter` keeping only stacks through a function or file whose name contains it;
 * `PROFILE_LAST_S=<s>` keeps only the profile's last seconds (the load run, without the startup), and
 * `PROFILE_WINDOW=<from>-<to>` only the samples between those seconds from the profile's start.
 */
import { label, origin, readProfile, samplesOf } from "./cpu-profile";

const [file, rowsArg, filter] = process.argv.slice(2);
if (!file) throw new Error("usage: cpu-profile-summary.ts <file.cpuprofile> [rows] [filter]");
const rows = Number(rowsArg ?? 40);
const profile = readProfile(file);

const self = new Map<string, number>();
const total = new Map<string, number>();
const byOrigin = new Map<string, number>();
let all = 0;
let idle = 0;
// The samples kept: from..to, in µs from the profile's start (PROFILE_LAST_S is the same window,
// counted back from the end).
const endUs = profile.timeDeltas.reduce((sum, delta) => sum + delta, 0);
const [fromUs = 0, toUs = Infinity] = process.env.PROFILE_LAST_S
  ? [endUs - Number(process.env.PROFILE_LAST_S) * 1e6]
  : (process.env.PROFILE_WINDOW ?? "0-Infinity").split("-").map((s) => Number(s) * 1e6);
for (const { atUs: at, us, stack } of samplesOf(profile)) {
  const atUs = at - profile.startTime;
  if (atUs < fromUs || atUs > toUs) continue;
  const node = stack[0]!;
  const name = node.callFrame.functionName;
  if (name === "(idle)" || name === "(program)" || name === "(garbage collector)") {
    if (name === "(idle)") idle += us;
    else {
      self.set(name, (self.get(name) ?? 0) + us);
      byOrigin.set(name, (byOrigin.get(name) ?? 0) + us);
      all += us;
    }
    continue;
  }
  if (filter && !stack.some((frame) => label(frame).includes(filter))) continue;
  all += us;
  self.set(label(node), (self.get(label(node)) ?? 0) + us);
  byOrigin.set(origin(node.callFrame.url), (byOrigin.get(origin(node.callFrame.url)) ?? 0) + us);
  for (const frame of new Set(stack.map(label))) total.set(frame, (total.get(frame) ?? 0) + us);
}

const ms = (us: number) => `${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / all).toFixed(1).padStart(5)} %`;
const top = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]).slice(0, rows);
process.stdout.write(
  `busy ${(all / 1000).toFixed(0)} ms, idle ${(idle / 1000).toFixed(0)} ms${filter ? ` (stacks through "${filter}")` : ""}\n`,
);
process.stdout.write("\nSelf time by origin\n");
for (const [name, us] of top(byOrigin)) process.stdout.write(`${ms(us)}  ${name}\n`);
process.stdout.write("\nSelf time by function\n");
for (const [name, us] of top(self)) process.stdout.write(`${ms(us)}  ${name}\n`);
process.stdout.write("\nTotal time by function\n");
for (const [name, us] of top(total)) process.stdout.write(`${ms(us)}  ${name}\n`);
