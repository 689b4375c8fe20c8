import { request as httpRequest, type IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { FuzzRequest, FuzzTarget, SurfaceName } from "./request";
import { actionIdsIn } from "./server-actions";
import { validSessionBody } from "./valid-bodies";

/**
 * Sending the hostile requests to a running instance and sorting the answers: by class (2xx, 3xx,
 * 4xx, 5xx, dropped) and by surface. Shared by `npm run fuzz` and the Playwright fuzz spec.
 */

export type AnswerClass = "2xx" | "3xx" | "4xx" | "5xx" | "dropped";

export interface Answer {
  request: FuzzRequest;
  status?: number;
  klass: AnswerClass;
  /** What is wrong beyond the class: a missing security header, or why the connection dropped. */
  problem?: string;
}

export function classOf(status: number): AnswerClass {
  if (status >= 500) return "5xx";
  if (status >= 400) return "4xx";
  if (status >= 300) return "3xx";
  return "2xx";
}

/**
 * The methods sent with fetch; any other (TRACE and CONNECT, which fetch refuses, WebDAV's, made-up
 * ones) is sent with node:http, which reads whatever the server answers.
 */
const FETCHED = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The answer's status and header names, for a request fetch cannot make. */
function sendRaw(origin: string, request: FuzzRequest, timeoutMs: number): Promise<{ status: number; has(name: string): boolean }> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: url.hostname, port: url.port, method: request.method, path: request.path, headers: request.headers, timeout: timeoutMs },
      (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0, has: (name) => response.headers[name] !== undefined }));
        response.on("error", reject);
      },
    );
    // The answer to CONNECT comes as a `connect` event (with the socket, which we close), whatever its status.
    outgoing.on("connect", (response: IncomingMessage, socket: Duplex) => {
      socket.destroy();
      resolve({ status: response.statusCode ?? 0, has: (name) => response.headers[name] !== undefined });
    });
    outgoing.on("timeout", () => outgoing.destroy(new Error("timed out")));
    outgoing.on("error", reject);
    outgoing.end(request.body);
  });
}

function answerOf(request: FuzzRequest, status: number, has: (name: string) => boolean): Answer {
  const klass = classOf(status);
  // Every answer with a body carries the security headers, refusals included. (Next's own 308s,
  // which normalise `//` and trailing slashes before our proxy runs, have no body to protect.)
  const missing = klass === "3xx" ? [] : ["x-content-type-options", "content-security-policy"].filter((name) => !has(name));
  return { request, status, klass, ...(missing.length > 0 ? { problem: `missing ${missing.join(", ")}` } : {}) };
}

export async function send(origin: string, request: FuzzRequest, timeoutMs = 20_000): Promise<Answer> {
  try {
    if (!FETCHED.has(request.method)) {
      const raw = await sendRaw(origin, request, timeoutMs);
      return answerOf(request, raw.status, raw.has);
    }
    const response = await fetch(`${origin}${request.path}`, {
      method: request.method,
      headers: request.headers,
      // A stream has no length to declare: undici sends it chunked.
      body: request.chunked && request.body !== undefined ? streamOf(request.body) : request.body,
      ...(request.chunked ? { duplex: "half" as const } : {}),
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.arrayBuffer();
    return answerOf(request, response.status, (name) => response.headers.has(name));
  } catch (error) {
    return {
      request,
      klass: "dropped",
      problem: error instanceof Error ? `${error.name}: ${error.message}${causeOf(error)}` : String(error),
    };
  }
}

function streamOf(body: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(body);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

function causeOf(error: Error): string {
  return error.cause instanceof Error ? ` (${error.cause.message})` : "";
}

export async function sendAll(
  origin: string,
  requests: FuzzRequest[],
  concurrency = 6,
  onAnswer?: (answer: Answer, done: number) => void,
): Promise<Answer[]> {
  const answers: Answer[] = new Array<Answer>(requests.length);
  let next = 0;
  let done = 0;
  async function worker() {
    while (next < requests.length) {
      const index = next++;
      answers[index] = await send(origin, requests[index]!);
      done += 1;
      onAnswer?.(answers[index], done);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return answers;
}

export type Tally = Record<SurfaceName | "all", Record<AnswerClass, number>>;

export function tally(answers: Answer[]): Tally {
  const result = {} as Tally;
  const empty = (): Record<AnswerClass, number> => ({ "2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0, dropped: 0 });
  for (const answer of answers) {
    for (const key of [answer.request.surface, "all"] as const) {
      result[key] ??= empty();
      result[key][answer.klass] += 1;
    }
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// The instance's state, before and after: what invalid input must not change.

export interface SetupOptions {
  origin: string;
  partnerSecret: string;
  webhookToken: string;
  sandboxKey: string;
  /** Where the session sends the customer back: on one of the partner's allowed origins (APP_URL's for the demo partner). */
  returnUrl: string;
}

/** Opens one checkout session (a valid call, before the fuzz) and finds the pages' action ids. */
export async function prepareTarget(options: SetupOptions): Promise<FuzzTarget> {
  const created = await fetch(`${options.origin}/api/checkout-sessions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${options.partnerSecret}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      ...validSessionBody,
      returnUrl: options.returnUrl,
      booking: { ...validSessionBody.booking, bookingReference: `FUZZ-${Date.now()}` },
    }),
  });
  if (created.status !== 201 && created.status !== 200)
    throw new Error(`Could not open a checkout session: HTTP ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  const pages = await Promise.all(
    ["/", `/checkout/${id}`, "/admin/login"].map(async (path) => (await fetch(`${options.origin}${path}`)).text()),
  );
  return {
    origin: options.origin,
    partnerSecret: options.partnerSecret,
    webhookToken: options.webhookToken,
    sandboxKey: options.sandboxKey,
    sessionId: id,
    actionIds: [...new Set(pages.flatMap(actionIdsIn))],
  };
}

export interface StateSnapshot {
  session: unknown;
  sandboxOperations: unknown;
  sandboxClock: unknown;
  sandboxFaults: unknown;
}

/** What can be seen of the instance's state from outside: the session, the sandbox's operations and clock. */
export async function snapshot(target: FuzzTarget): Promise<StateSnapshot> {
  const get = async (path: string, headers: Record<string, string>) => {
    const response = await fetch(`${target.origin}${path}`, { headers });
    return { status: response.status, body: (await response.json()) as unknown };
  };
  const key = { "X-Service-API-Key": target.sandboxKey };
  const operations = await get("/sandbox/v1/operations?size=100", key);
  const clock = await get("/sandbox/_control/clock", key);
  // The clock moves with real time: only its offset is state.
  const clockBody = clock.body as { offsetSeconds?: unknown };
  return {
    session: await get(`/api/checkout-sessions/${target.sessionId}`, { Authorization: `Bearer ${target.partnerSecret}` }),
    sandboxOperations: { status: operations.status, total: (operations.body as { totalElements?: unknown }).totalElements },
    sandboxClock: { status: clock.status, offsetSeconds: clockBody.offsetSeconds },
    sandboxFaults: await get("/sandbox/_control/faults", key),
  };
}

export async function health(origin: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${origin}/api/health`);
  return { status: response.status, body: await response.text() };
}
