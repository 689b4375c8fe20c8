import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { categoryOf, samplesOf, type Profile, type ProfileNode } from "./cpu-profile";

let nextId = 1;
const frame = (functionName: string, url = "", lineNumber = 0, columnNumber = 0): ProfileNode => ({
  id: nextId++,
  callFrame: { functionName, url, lineNumber, columnNumber },
});

describe("a CPU profile's samples", () => {
  const root = frame("(root)");
  const render = frame("render", "file:///app/node_modules/next/dist/server/render.js");
  const write = frame("writeBuffer");
  root.children = [render.id];
  render.children = [write.id];
  const profile: Profile = {
    nodes: [root, render, write],
    samples: [write.id, render.id, write.id, render.id],
    // The third sample came 40 ms late: the process waited for a core, it did not run.
    timeDeltas: [1000, 1000, 40_000, 1000],
    startTime: 5_000_000,
  };

  it("gives each its stack, leaf first, without the root", () => {
    expect(samplesOf(profile).map((s) => s.stack.map((f) => f.callFrame.functionName))).toEqual([
      ["writeBuffer", "render"],
      ["render"],
      ["writeBuffer", "render"],
      ["render"],
    ]);
  });

  it("dates each on the monotonic clock, and counts each for the sampling interval, not its own gap", () => {
    const samples = samplesOf(profile);
    expect(samples.map((s) => s.atUs)).toEqual([5_001_000, 5_002_000, 5_042_000, 5_043_000]);
    expect(samples.map((s) => s.us)).toEqual([1000, 1000, 1000, 1000]);
  });
});

describe("the share a sample belongs to", () => {
  const stack = (...frames: ProfileNode[]) => frames;
  const next = (file: string) => frame("f", `file:///app/node_modules/next/dist/${file}`);

  it("counts a builtin for the code that called it", () => {
    expect(categoryOf(stack(frame("stringify"), next("compiled/react-dom/cjs/react-dom-server.node.production.js")))).toBe(
      "React (render, Flight)",
    );
    expect(categoryOf(stack(frame("stringify"), next("server/app-render/app-render.js")))).toBe("Next (routing, render, streams)");
  });

  it("counts Node's own code for the package that called it, and as Node's only when nothing else is on the stack", () => {
    const socketWrite = frame("writeGeneric", "node:internal/stream_base_commons");
    expect(categoryOf(stack(socketWrite, frame("write", "file:///app/node_modules/postgres/cjs/src/connection.js")))).toBe(
      "DB driver (postgres.js, drizzle, PGlite)",
    );
    expect(categoryOf(stack(socketWrite, frame("onread", "node:net")))).toBe("Node (HTTP, sockets, timers)");
  });

  it("names the packages apart, ours by elimination", () => {
    expect(categoryOf(stack(frame("parse", "file:///app/node_modules/zod/v4/core/parse.js")))).toBe("zod");
    expect(categoryOf(stack(frame("fetch", "node:internal/deps/undici/undici")))).toBe("undici");
    expect(categoryOf(stack(frame("write", "file:///app/node_modules/pino/lib/proto.js")))).toBe("pino");
    expect(categoryOf(stack(frame("sessionState", "file:///app/lib/checkout/session/session-state.ts")))).toBe("our code");
    expect(categoryOf(stack(frame("(garbage collector)")))).toBe("GC");
    expect(categoryOf(stack(frame("(program)")))).toBe("V8 (compile, runtime)");
  });

  describe("in a bundle, through its source map", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "cpu-profile-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const bundle = path.join(dir, "chunk.js");
    writeFileSync(bundle, "a();\nb();\n");
    // Line 1 from our module, line 2 from drizzle's (VLQ: AAAA = source 0, ACAA = the next source).
    writeFileSync(
      `${bundle}.map`,
      JSON.stringify({
        version: 3,
        sources: ["../../lib/db/sessions.ts", "../../node_modules/drizzle-orm/pg-core/dialect.js"],
        names: [],
        mappings: "AAAA;ACAA",
      }),
    );
    const url = pathToFileURL(bundle).href;

    it("counts each function for the source it was bundled from", () => {
      expect(categoryOf(stack(frame("a", url, 0, 0)))).toBe("our code");
      expect(categoryOf(stack(frame("b", url, 1, 0)))).toBe("DB driver (postgres.js, drizzle, PGlite)");
    });

    it("reads a relative source from the map's folder: Next's compiled file names its own src/, which is Next's", () => {
      const server = path.join(dir, "node_modules/next/dist/server");
      mkdirSync(server, { recursive: true });
      writeFileSync(path.join(server, "base-server.js"), "a();\n");
      writeFileSync(
        path.join(server, "base-server.js.map"),
        JSON.stringify({ version: 3, sources: ["../../src/server/base-server.ts"], names: [], mappings: "AAAA" }),
      );
      const frameOfNext = frame("handleRequest", pathToFileURL(path.join(server, "base-server.js")).href, 0, 0);
      expect(categoryOf(stack(frameOfNext))).toBe("Next (routing, render, streams)");
    });
  });
});
