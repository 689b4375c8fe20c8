import { describe, expect, it } from "vitest";
import { readBodyText, readJsonBody } from "./body";

function streamed(chunks: number, chunkSize: number, counter: { pulled: number }): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      counter.pulled += 1;
      if (counter.pulled > chunks) controller.close();
      else controller.enqueue(new Uint8Array(chunkSize).fill(97));
    },
  });
}

function post(body: BodyInit, headers: Record<string, string> = {}): Request {
  return new Request("http://test/", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

describe("readBodyText", () => {
  it("refuses a declared length over the limit without reading anything", async () => {
    const counter = { pulled: 0 };
    const request = post(streamed(1000, 1024, counter), { "content-length": String(1000 * 1024) });
    const result = await readBodyText(request, 4096);
    expect(result).toEqual({ ok: false, problem: "too_large", limit: 4096 });
    expect(request.bodyUsed).toBe(false);
    // At most the one chunk a stream pulls ahead on its own when it is made.
    expect(counter.pulled).toBeLessThanOrEqual(1);
  });

  it("stops reading a body without a length as soon as it passes the limit", async () => {
    const counter = { pulled: 0 };
    const result = await readBodyText(post(streamed(10_000, 1024, counter)), 4096);
    expect(result).toMatchObject({ ok: false, problem: "too_large" });
    expect(counter.pulled).toBeLessThanOrEqual(7);
  });

  it("reads a body within the limit, and refuses bytes that are not UTF-8", async () => {
    expect(await readBodyText(post("héllo"), 4096)).toEqual({ ok: true, text: "héllo" });
    expect(await readBodyText(post(new Uint8Array([0x68, 0xff, 0x69])), 4096)).toEqual({ ok: false, problem: "not_utf8" });
  });
});

describe("readJsonBody", () => {
  it("tells an empty body, bad JSON and a value apart", async () => {
    expect(await readJsonBody(post(""), 100)).toEqual({ ok: false, problem: "empty" });
    expect(await readJsonBody(post("{"), 100)).toEqual({ ok: false, problem: "not_json" });
    expect(await readJsonBody(post("null"), 100)).toEqual({ ok: true, value: null });
  });
});
