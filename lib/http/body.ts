/**
 * Reading a request body with a byte limit, refused before it is buffered: a declared
 * Content-Length over the limit is refused without reading anything, and a body without one (or
 * lying about it) is read chunk by chunk and abandoned as soon as it passes the limit. Pure Web
 * streams: the app's route handlers and the sandbox use it alike.
 */

export type BodyResult =
  { ok: true; text: string } | { ok: false; problem: "too_large"; limit: number } | { ok: false; problem: "not_utf8" };

export async function readBodyText(request: Request, limit: number): Promise<BodyResult> {
  const declared = request.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > limit) return { ok: false, problem: "too_large", limit };
  if (!request.body) return { ok: true, text: "" };

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return { ok: false, problem: "too_large", limit };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    // Fatal: bytes that are not UTF-8 are refused, not turned into U+FFFD and stored.
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, problem: "not_utf8" };
  }
}

export type JsonBodyResult =
  | { ok: true; value: unknown }
  | { ok: false; problem: "too_large"; limit: number }
  | { ok: false; problem: "not_utf8" | "not_json" | "empty" };

/** The body as JSON, within `limit` bytes. An empty body is its own problem (some calls allow it). */
export async function readJsonBody(request: Request, limit: number): Promise<JsonBodyResult> {
  const body = await readBodyText(request, limit);
  if (!body.ok) return body;
  if (body.text.trim() === "") return { ok: false, problem: "empty" };
  try {
    return { ok: true, value: JSON.parse(body.text) };
  } catch {
    return { ok: false, problem: "not_json" };
  }
}

/** A JSON object (not null, not an array): what every JSON body here is. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A plain-language description of a body problem, for the error message of each surface's format. */
export function bodyProblemMessage(result: Exclude<JsonBodyResult, { ok: true }>): string {
  switch (result.problem) {
    case "too_large":
      return `is larger than ${result.limit} bytes`;
    case "not_utf8":
      return "is not UTF-8 text";
    case "not_json":
      return "is not valid JSON";
    case "empty":
      return "is required";
  }
}
