import path from "node:path";
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from "@playwright/test/reporter";

/**
 * Prints, when the run ends, where its time went: the set-up before the first test (the build and
 * the web servers of playwright.config.ts), then each spec file, slowest first. A file's span runs
 * from its first test's start to its last test's end (its hooks, its own servers and retries
 * included), and names its lane (the project: playwright.config.ts runs the lanes side by side, each
 * one file at a time); then each lane's total, which is what bounds the run.
 */
export default class SpecTimesReporter implements Reporter {
  private readonly createdAt = Date.now();
  private setupMs = 0;
  private readonly files = new Map<string, { lane: string; start: number; end: number; tests: number; retries: number }>();

  onBegin(_config: FullConfig, _suite: Suite): void {
    this.setupMs = Date.now() - this.createdAt;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    // As a command line names it: `npm run test:e2e -- e2e/<spec>.ts`.
    const file = path.relative(process.cwd(), test.location.file);
    const start = result.startTime.getTime();
    const end = start + result.duration;
    const entry = this.files.get(file);
    if (!entry) {
      const lane = test.parent.project()?.name ?? "";
      this.files.set(file, { lane, start, end, tests: result.retry === 0 ? 1 : 0, retries: result.retry > 0 ? 1 : 0 });
      return;
    }
    entry.start = Math.min(entry.start, start);
    entry.end = Math.max(entry.end, end);
    if (result.retry === 0) entry.tests += 1;
    else entry.retries += 1;
  }

  onEnd(_result: FullResult): void {
    const rows = [...this.files.entries()].map(([file, t]) => ({
      file,
      lane: t.lane,
      ms: t.end - t.start,
      tests: t.tests,
      retries: t.retries,
    }));
    rows.sort((a, b) => b.ms - a.ms);
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`.padStart(9);
    const wholeMs = Date.now() - this.createdAt;
    const lanes = new Map<string, number>();
    for (const row of rows) lanes.set(row.lane, (lanes.get(row.lane) ?? 0) + row.ms);
    const lines = [
      "",
      `Time per spec file, slowest first (whole run ${seconds(wholeMs).trim()}):`,
      `${seconds(this.setupMs)}  before the first test (build, web servers)`,
      ...rows.map(
        (r) =>
          `${seconds(r.ms)}  ${r.file} [${r.lane}] (${r.tests} test${r.tests === 1 ? "" : "s"}${r.retries ? `, ${r.retries} retried` : ""})`,
      ),
      "Per lane, its files' times added up:",
      ...[...lanes.entries()].sort((a, b) => b[1] - a[1]).map(([lane, ms]) => `${seconds(ms)}  ${lane}`),
      "",
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  }
}
