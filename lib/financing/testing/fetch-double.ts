/**
 * A fetch double for the partner API client: it records each request exactly as it would go on the
 * wire and answers from a queue, so tests assert method, path, query, headers and body without a
 * network.
 */
export interface RecordedRequest {
  method: string;
  url: URL;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal | undefined;
}

export type Answer = Response | Error | ((request: RecordedRequest) => Response | Promise<Response>);

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
}

export function createFetchDouble(basePath = "/v1") {
  const requests: RecordedRequest[] = [];
  const answers: Answer[] = [];

  const fetchDouble = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const request: RecordedRequest = {
      method: init.method ?? "GET",
      url,
      path: url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) : url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      body: typeof init.body === "string" ? JSON.parse(init.body) : init.body,
      signal: init.signal ?? undefined,
    };
    requests.push(request);
    const answer = answers.shift();
    if (answer === undefined) throw new Error(`fetch double: no answer queued for ${request.method} ${request.path}`);
    if (answer instanceof Error) throw answer;
    return typeof answer === "function" ? answer(request) : answer;
  };

  return {
    fetch: fetchDouble as typeof fetch,
    requests,
    /** Queues answers, in order. */
    answer(...next: Answer[]) {
      answers.push(...next);
    },
    get last(): RecordedRequest {
      const request = requests.at(-1);
      if (!request) throw new Error("fetch double: no request was made");
      return request;
    },
  };
}
