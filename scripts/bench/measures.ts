import { writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import { findChromium, LAUNCH_ARGS } from "../chromium.mjs";

/* One measure of one page or URL: its timing, its weight, its Lighthouse scores, its load. */

export const chromium = findChromium(process.env);

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function timed(url: string, init?: RequestInit): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, init);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  return performance.now() - started;
}

export async function firstLoadJs(url: string): Promise<{ html: number; htmlGzip: number; jsGzip: number }> {
  const html = await (await fetch(url)).text();
  // BENCH_DUMP_HTML=<dir>: each page's HTML as measured, to see what it is made of.
  if (process.env.BENCH_DUMP_HTML)
    writeFileSync(path.join(process.env.BENCH_DUMP_HTML, `${new URL(url).pathname.replaceAll("/", "_")}.html`), html);
  const sources = new Set([...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&")));
  let jsGzip = 0;
  for (const src of sources) jsGzip += gzipSync(Buffer.from(await (await fetch(new URL(src, url))).arrayBuffer())).length;
  return { html: Buffer.byteLength(html), htmlGzip: gzipSync(html).length, jsGzip };
}

export async function lighthouse(
  url: string,
): Promise<{ performance: number; accessibility: number; tbt: number; benchmarkIndex: number }> {
  const { launch } = await import("chrome-launcher");
  const { default: run } = await import("lighthouse");
  const chrome = await launch({ chromePath: chromium.path!, chromeFlags: ["--headless=new", ...LAUNCH_ARGS] });
  try {
    const result = await run(url, {
      port: chrome.port,
      onlyCategories: ["performance", "accessibility"],
      output: "json",
      logLevel: "error",
    });
    const lhr = result!.lhr;
    return {
      performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
      tbt: Math.round(lhr.audits["total-blocking-time"]?.numericValue ?? 0),
      benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    };
  } finally {
    chrome.kill();
  }
}

/** Requests/s and latency of one autocannon run (the servers' CPU is read around it: `paired`). */
export async function load(url: string, seconds: number) {
  const result = await autocannon({ url, connections: 10, duration: seconds });
  return {
    rps: result.requests.total / seconds,
    p50: result.latency.p50,
    errors: result.errors + result.non2xx,
    requests: result.requests.total,
    seconds,
  };
}
