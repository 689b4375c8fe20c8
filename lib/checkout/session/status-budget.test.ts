/**
 * What anonymous requests to a checkout's status cost at the partner API: a burst of status polls
 * and provider returns for one session makes one status call per reuse window, and over the
 * session's or the client's token bucket a request is refused (429) before anything is read.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { createReuseWindow } from "@/lib/ops/shared-probe";
import type { Partner } from "@/lib/partners/partners";
import type { AppError } from "@/lib/app-error";
import { sharedBuckets } from "@/lib/security/limits/shared-token-bucket";
import { decideAtProvider, startSandboxServer } from "@/lib/sandbox/testing/servers";
import { pollStatus, refreshStatus, type CheckoutContext } from "./flow";
import { statusReadRefusal, type StatusThrottle } from "./status-throttle";
import { recordingFetch, sessionAtProvider, testContext, type RecordedCall } from "../testing/context";

let server: Awaited<ReturnType<typeof startSandboxServer>>;
let database: Database;
let ctx: CheckoutContext;
let partner: Partner;
let clock = 0;
const recorded: RecordedCall[] = [];
const statusCalls = (operationId: string) =>
  recorded.filter((call) => call.method === "GET" && call.path === `/operations/${operationId}/status`).length;

beforeAll(async () => {
  server = await startSandboxServer();
  const built = await testContext(server.baseUrl, { fetch: recordingFetch(recorded) });
  ({ database, partner } = built);
  // The app's context has a reuse window (lib/app-context.ts); this one runs on the test's clock.
  ctx = { ...built.ctx, statusReuse: createReuseWindow(3_000, { now: () => clock }) };
});

afterAll(async () => {
  await database?.close();
  await server?.close();
});

describe("status reads anonymous requests trigger", () => {
  it("cost one partner API call per session per window for polls, and one for returns, however many arrive", async () => {
    const session = await sessionAtProvider(ctx, partner);
    const operationId = session.operationId!;
    const before = statusCalls(operationId);

    const burst = await Promise.all([
      ...Array.from({ length: 40 }, () => pollStatus(ctx, session.id)),
      ...Array.from({ length: 10 }, () => refreshStatus(ctx, session.id, "return")),
    ]);
    expect(burst).toHaveLength(50);
    expect(statusCalls(operationId) - before).toBe(2);

    // Within the window: what is stored answers, even after the customer's decision.
    await decideAtProvider(server.origin, operationId);
    clock += 2_000;
    for (let i = 0; i < 20; i += 1) await pollStatus(ctx, session.id);
    expect(statusCalls(operationId) - before).toBe(2);

    // After it: one new call, which sees the decision.
    clock += 1_000;
    const views = await Promise.all(Array.from({ length: 20 }, () => pollStatus(ctx, session.id)));
    expect(statusCalls(operationId) - before).toBe(3);
    expect(views.every((view) => view.state === views[0]!.state)).toBe(true);
    expect(views[0]!.state).not.toBe("pending");
  });

  it("a customer back from the provider is read at once, though the page polled a second ago", async () => {
    const session = await sessionAtProvider(ctx, partner);
    await pollStatus(ctx, session.id);
    await decideAtProvider(server.origin, session.operationId!);
    clock += 1_000;
    const back = await refreshStatus(ctx, session.id, "return");
    expect(back.operationStatus).not.toBe("CLIENT_REQUESTED");
    // The status page the return leads to shows it, without another call.
    const calls = statusCalls(session.operationId!);
    expect((await pollStatus(ctx, session.id)).state).not.toBe("pending");
    expect(statusCalls(session.operationId!)).toBe(calls);
  });

  it("other sources (the reconciler, the customer's own actions) are never held back by the window", async () => {
    const session = await sessionAtProvider(ctx, partner);
    const before = statusCalls(session.operationId!);
    await pollStatus(ctx, session.id);
    await refreshStatus(ctx, session.id, "reconcile");
    await refreshStatus(ctx, session.id, "action");
    expect(statusCalls(session.operationId!) - before).toBe(3);
  });
});

describe("the status reads' token buckets", () => {
  let family = 0;
  /** The throttle of one instance; `prefix` the same on two instances of one configuration. */
  const throttle = (prefix = `status-test-${(family += 1)}`): StatusThrottle => ({
    perSession: sharedBuckets(`${prefix}:session`, 5),
    perIp: sharedBuckets(`${prefix}:ip`, 8),
    trustedProxyHops: 0,
    now: () => new Date(Date.UTC(2026, 0, 1) + clock),
  });
  const request = () => new Request("http://localhost/checkout/cs_x/status/data");
  const refusals = (count: number, ask: (i: number) => Promise<AppError | undefined>) =>
    Promise.all(Array.from({ length: count }, (_, i) => ask(i)));

  it("refuse a session's requests past its bucket with 429 and the seconds to wait", async () => {
    const buckets = throttle();
    const answers: (AppError | undefined)[] = [];
    for (let i = 0; i < 7; i++) answers.push(await statusReadRefusal(database.db, request(), "cs_one", buckets));
    expect(answers.filter((answer) => answer === undefined)).toHaveLength(5);
    const refusal = answers.at(-1)!;
    expect(refusal).toMatchObject({ code: "rate_limited", status: 429 });
    expect(refusal.details.retryAfterS).toBeGreaterThanOrEqual(1);
    expect(refusal.details.retryAfterS).toBeLessThanOrEqual(12);
  });

  it("refuse a client's requests past its bucket whatever session they name, even all at once", async () => {
    const buckets = throttle();
    const answers = await refusals(10, (i) => statusReadRefusal(database.db, request(), `cs_${i}`, buckets));
    expect(answers.filter((answer) => answer === undefined)).toHaveLength(8);
    expect(answers.filter((answer) => answer?.code === "rate_limited")).toHaveLength(2);
  });

  it("are shared by every instance: a client gets no more by spreading its reads over two", async () => {
    const [one, two] = [throttle("status-shared"), throttle("status-shared")];
    const answers = await refusals(12, (i) => statusReadRefusal(database.db, request(), `cs_spread_${i}`, i % 2 === 0 ? one : two));
    expect(answers.filter((answer) => answer === undefined)).toHaveLength(8);
    // And one session's budget is one, whichever instance its poll reaches.
    const polls: (AppError | undefined)[] = [];
    const from = (ip: string) => new Request("http://localhost/checkout/cs_x/status/data", { headers: { "X-Forwarded-For": ip } });
    const [hopOne, hopTwo] = [
      { ...one, trustedProxyHops: 1 },
      { ...two, trustedProxyHops: 1 },
    ];
    for (let i = 0; i < 7; i++)
      polls.push(await statusReadRefusal(database.db, from(`192.0.2.${i + 1}`), "cs_polled", i % 2 === 0 ? hopOne : hopTwo));
    expect(polls.filter((answer) => answer === undefined)).toHaveLength(5);
  });

  it("count an IPv6 client by its /64, whichever address of the line it sends from", async () => {
    // Behind one proxy, so that the test can be several clients (X-Forwarded-For's last entry).
    const buckets = { ...throttle(), trustedProxyHops: 1 };
    const from = (ip: string) => new Request("http://localhost/checkout/cs_x/status/data", { headers: { "X-Forwarded-For": ip } });
    const answers: (AppError | undefined)[] = [];
    for (let i = 0; i < 10; i++) answers.push(await statusReadRefusal(database.db, from(`2001:db8:5:1::${i + 1}`), `cs_v6_${i}`, buckets));
    expect(answers.filter((answer) => answer === undefined)).toHaveLength(8);
    expect(answers.slice(8).every((answer) => answer?.code === "rate_limited")).toBe(true);
    expect(await statusReadRefusal(database.db, from("2001:db8:5:2::1"), "cs_v6_other", buckets)).toBeUndefined();
  });
});
