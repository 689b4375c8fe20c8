/**
 * The alerting and recording rules operators load (deploy/prometheus/rules/, shown in
 * docs/operators/monitoring.md): each file valid for Prometheus (`promtool check rules`), each group
 * proved on synthetic series by its own test file (`promtool test rules`, deploy/prometheus/tests/),
 * each alert shown there firing and not firing, on series named as the app exports them.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { metrics } from "@/lib/ops/metrics";
import { findPromtool, promtool } from "./promtool";

const DIR = path.join(process.cwd(), "deploy/prometheus");
const RULE_FILES = readdirSync(path.join(DIR, "rules")).filter((name) => name.endsWith(".rules.yml"));
const TEST_FILES = readdirSync(path.join(DIR, "tests")).filter((name) => name.endsWith(".test.yml"));
const read = (...parts: string[]) => readFileSync(path.join(DIR, ...parts), "utf8");

let bin: string;
beforeAll(() => {
  bin = promtool();
});

function runPromtool(args: string[]): { ok: boolean; output: string } {
  const result = spawnSync(bin, args, { cwd: DIR, encoding: "utf8" });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}

describe("the Prometheus rules", () => {
  it("are all valid for Prometheus (promtool check rules)", () => {
    expect(RULE_FILES.length).toBeGreaterThanOrEqual(5);
    const checked = runPromtool(["check", "rules", ...RULE_FILES.map((name) => `rules/${name}`)]);
    expect(checked.output).not.toContain("FAILED");
    expect(checked.ok, checked.output).toBe(true);
  });

  it.each(TEST_FILES)("hold on synthetic series: promtool test rules tests/%s", (name) => {
    const tested = runPromtool(["test", "rules", `tests/${name}`]);
    expect(tested.output).toContain("SUCCESS");
    expect(tested.ok, tested.output).toBe(true);
  });

  it.each(RULE_FILES)("%s has its test file, showing each of its alerts firing and not firing", (name) => {
    const group = name.replace(/\.rules\.yml$/, "");
    expect(TEST_FILES).toContain(`${group}.test.yml`);
    const rules = read("rules", name);
    const tests = read("tests", `${group}.test.yml`);
    expect(tests).toContain(`- ../rules/${name}`);
    const alerts = [...rules.matchAll(/^\s*- alert: (\w+)$/gm)].map((match) => match[1]!);
    expect(alerts.length).toBeGreaterThan(0);
    for (const alert of alerts) {
      expect(tests, `${alert} shown not firing`).toMatch(new RegExp(`alertname: ${alert}\\n\\s*exp_alerts: \\[\\]`));
      expect(tests, `${alert} shown firing`).toMatch(new RegExp(`alertname: ${alert}\\n\\s*exp_alerts:\\n\\s*- exp_labels:`));
    }
  });

  it("are tested on the series the app exports (and on up and the blackbox exporter's probe_success)", async () => {
    const exported = new Set<string>(["up", "probe_success"]);
    for (const metric of await metrics().registry.getMetricsAsJSON()) {
      exported.add(metric.name);
      if (String(metric.type) === "histogram") for (const suffix of ["_bucket", "_count", "_sum"]) exported.add(`${metric.name}${suffix}`);
    }
    const series = TEST_FILES.flatMap((name) =>
      [...read("tests", name).matchAll(/series: ['"]([a-zA-Z_:][\w:]*)\{/g)].map((match) => match[1]!),
    );
    expect(series.length).toBeGreaterThan(0);
    expect(series.filter((name) => !exported.has(name))).toEqual([]);
  });
});

describe("finding promtool", () => {
  const exists = (files: string[]) => (file: string) => files.includes(file);

  it("takes PROMTOOL_PATH, and says so when nothing is there", () => {
    expect(findPromtool({ PROMTOOL_PATH: "/opt/promtool", PATH: "/usr/bin" }, exists(["/opt/promtool", "/usr/bin/promtool"]))).toBe(
      "/opt/promtool",
    );
    expect(() => findPromtool({ PROMTOOL_PATH: "/opt/promtool" }, exists([]))).toThrow(/PROMTOOL_PATH is set to "\/opt\/promtool"/);
  });

  it("else looks on PATH, and answers null when promtool is nowhere", () => {
    expect(findPromtool({ PATH: "/usr/local/bin:/usr/bin" }, exists(["/usr/bin/promtool"]))).toBe("/usr/bin/promtool");
    expect(findPromtool({ PATH: "/usr/local/bin:/usr/bin" }, exists([]))).toBeNull();
  });
});
