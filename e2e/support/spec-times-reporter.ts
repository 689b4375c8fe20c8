import path from "node:path";
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from "@playwright/test/reporter";

/**
 * Prints, when the run ends, where its time went: the set-up before the first test (the build and
 * the web servers of playwright.config.ts), then each spec file, slowest first. A file's span runs
 * from its first test's start to its last test's end (its hooks, its own servers and retries
 * included); with one worker, as in CI, the spans add up to the run.
 */
export default class SpecTimesReporter implements Reporter {
  private readonly createdAt = Date.now();
  private rootDir = "";
  private setupMs = 0;
  private readonly files = new Map<string, { start: number; end: number; tests: number; retries: number }>();

  onBegin(config: FullConfig, _suite: Suite): void {
    this.rootDir = config.rootDir;
    this.setupMs = Date.now() - this.createdAt;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const file = path.relative(this.rootDir, test.location.file);
    const start = result.startTime.getTime();
    const end = start + result.duration;
    const entry = this.files.get(file);
    if (!entry) {
      this.files.set(file, { start, end, tests: result.retry === 0 ? 1 : 0, retries: result.retry > 0 ? 1 : 0 });
      return;
    }
    entry.start = Math.min(entry.start, start);
    entry.end = Math.max(entry.end, end);
    if (result.retry === 0) entry.tests += 1;
    else entry.retries += 1;
  }

  onEnd(_result: FullResult): void {
    const rows = [...this.files.entries()].map(([file, t]) => ({ file, ms: t.end - t.start, tests: t.tests, retries: t.retries }));
    rows.sort((a, b) => b.ms - a.ms);
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`.padStart(9);
    const lines = [
      "",
      `Time per spec file, slowest first (whole run ${seconds(Date.now() - this.createdAt).trim()}):`,
      `${seconds(this.setupMs)}  before the first test (build, web servers)`,
      ...rows.map(
        (r) => `${seconds(r.ms)}  ${r.file} (${r.tests} test${r.tests === 1 ? "" : "s"}${r.retries ? `, ${r.retries} retried` : ""})`,
      ),
      "",
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  }
}
