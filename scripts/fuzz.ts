/**
 * `npm run fuzz -- --origin http://127.0.0.1:3000 --count 10000 [--seed 12] [--concurrency 6]`
 *
 * Sends generated hostile requests (lib/testing/fuzz: the same ones the fuzz tests send) to every
 * input surface of a running instance, the app's and its sandbox's, and prints the answers by class
 * and by surface. Exits non-zero on any 5xx, dropped connection, answer without the security
 * headers, change of state (the checkout session it opens first, the sandbox's operations, clock
 * and faults), or an unhealthy `/api/health` after. For QA teams and operators; run it against a
 * deployment with the sandbox enabled (the default), never against production data.
 *
 * The secrets default to the sandbox setup's: --partner-secret (DEMO_PARTNER_SECRET), --webhook-token
 * (WEBHOOK_TOKEN, else derived from --api-key as the app derives it), --sandbox-key; --return-url
 * (APP_URL, else http://localhost:<port>/) for the one session it opens.
 */
import { createHash } from "node:crypto";
import { isDeepStrictEqual, parseArgs } from "node:util";
import { SURFACES } from "../lib/testing/fuzz/request";
import { sampleRequests } from "../lib/testing/fuzz/surfaces";
import { health, prepareTarget, sendAll, snapshot, tally, type Answer, type AnswerClass } from "../lib/testing/fuzz/run";

const { values } = parseArgs({
  options: {
    origin: { type: "string", default: "http://127.0.0.1:3000" },
    count: { type: "string", default: "1000" },
    seed: { type: "string", default: String(Date.now() % 1_000_000) },
    concurrency: { type: "string", default: "6" },
    "partner-secret": { type: "string", default: process.env.DEMO_PARTNER_SECRET ?? "demo_partner_secret_sandbox_only" },
    "api-key": { type: "string", default: process.env.FINANCING_API_KEY ?? "fk_test_sandbox_agency_101" },
    "webhook-token": { type: "string", default: process.env.WEBHOOK_TOKEN },
    "sandbox-key": { type: "string", default: "fk_test_sandbox_agency_101" },
    "return-url": { type: "string", default: process.env.APP_URL },
    show: { type: "string", default: "10" },
  },
});

const origin = values.origin.replace(/\/+$/, "");
const count = Number(values.count);
const seed = Number(values.seed);
if (!Number.isInteger(count) || count < 1 || !Number.isInteger(seed)) {
  console.error("--count and --seed must be whole numbers");
  process.exit(2);
}
const webhookToken =
  values["webhook-token"] ?? createHash("sha256").update(`webhook-token:${values["api-key"]}`).digest("base64url").slice(0, 32);

const before = await health(origin);
if (before.status !== 200) {
  console.error(`${origin}/api/health answers ${before.status}: ${before.body}`);
  process.exit(2);
}

// The demo partner allows its APP_URL, by default http://localhost:<port>.
const returnUrl = values["return-url"] ?? `http://localhost:${new URL(origin).port || 80}/`;
const target = await prepareTarget({
  origin,
  partnerSecret: values["partner-secret"],
  webhookToken,
  sandboxKey: values["sandbox-key"],
  returnUrl,
});
console.log(
  `fuzz: ${count} requests to ${origin} (seed ${seed}), session ${target.sessionId}, ${target.actionIds.length} action ids found`,
);
const stateBefore = await snapshot(target);

const requests = sampleRequests(target, count, { seed });
const started = Date.now();
const answers = await sendAll(origin, requests, Number(values.concurrency), (_answer, done) => {
  if (done % 1000 === 0) console.log(`  ${done}/${count} (${Math.round((Date.now() - started) / 1000)} s)`);
});

const stateAfter = await snapshot(target);
const after = await health(origin);

const classes: AnswerClass[] = ["2xx", "3xx", "4xx", "5xx", "dropped"];
const table = tally(answers);
const row = (name: string, counts: Record<AnswerClass, number> | undefined) =>
  `${name.padEnd(20)}${classes.map((klass) => String(counts?.[klass] ?? 0).padStart(9)).join("")}`;
console.log(`\n${"surface".padEnd(20)}${classes.map((klass) => klass.padStart(9)).join("")}`);
for (const surface of SURFACES) console.log(row(surface, table[surface]));
console.log(row("all", table.all));

const bad: Answer[] = answers.filter((answer) => answer.klass === "5xx" || answer.klass === "dropped");
const headerless = answers.filter((answer) => answer.problem && answer.klass !== "dropped");
const show = Number(values.show);
for (const answer of [...bad, ...headerless].slice(0, show)) {
  const { method, path, headers, body } = answer.request;
  console.log(
    `\n${answer.klass} ${answer.status ?? ""} ${answer.problem ?? ""}\n  ${method} ${path.slice(0, 200)}\n  headers ${JSON.stringify(headers)}\n  body ${JSON.stringify(body?.slice(0, 300))}`,
  );
}

const stateChanged = !isDeepStrictEqual(stateBefore, stateAfter);
console.log(`\nseconds: ${Math.round((Date.now() - started) / 1000)}`);
console.log(`5xx: ${table.all?.["5xx"] ?? 0}, dropped: ${table.all?.dropped ?? 0}, without security headers: ${headerless.length}`);
console.log(
  `state ${stateChanged ? `CHANGED:\n  before ${JSON.stringify(stateBefore)}\n  after  ${JSON.stringify(stateAfter)}` : "unchanged"}`,
);
console.log(`health after: ${after.status} ${after.body}`);
process.exit(bad.length === 0 && headerless.length === 0 && !stateChanged && after.status === 200 ? 0 : 1);
