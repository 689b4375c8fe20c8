import { createHash } from "node:crypto";
import { expect, test } from "@playwright/test";
import { DEMO_PARTNERS } from "./support/app";
import { health, prepareTarget, sendAll, snapshot, tally } from "@/lib/testing/fuzz/run";
import { SURFACES, type SurfaceName } from "@/lib/testing/fuzz/request";
import { sampleRequests } from "@/lib/testing/fuzz/surfaces";

/**
 * Generated hostile requests (lib/testing/fuzz, the same as `npm run fuzz`) against the built app,
 * per surface: never a 5xx nor a dropped connection, the security headers on every answer with a
 * body, and nothing changed that can be seen from outside (the partner's session, the sandbox's
 * operations, clock and faults). A bounded count per surface keeps it to a minute or so.
 */

const RUNS_PER_SURFACE = 120;
// The app's default webhook token, derived from the default sandbox key (lib/config/env.ts).
const WEBHOOK_TOKEN = createHash("sha256").update("webhook-token:fk_test_sandbox_agency_101").digest("base64url").slice(0, 32);

test.describe.configure({ mode: "serial" });

test("every surface answers hostile input with a 4xx, or a page, never a 5xx, and changes nothing", async ({ baseURL }) => {
  test.setTimeout(5 * 60_000);
  const origin = baseURL!;
  const port = new URL(origin).port;
  const target = await prepareTarget({
    origin,
    partnerSecret: DEMO_PARTNERS.demo.secret,
    webhookToken: WEBHOOK_TOKEN,
    sandboxKey: "fk_test_sandbox_agency_101",
    returnUrl: `http://localhost:${port}/`,
  });
  expect(target.actionIds.length, "server action ids found in the pages").toBeGreaterThan(0);

  const before = await snapshot(target);
  const failures: string[] = [];
  for (const surface of SURFACES) {
    const requests = sampleRequests(target, RUNS_PER_SURFACE, { seed: 12, surfaces: [surface] as SurfaceName[] });
    const answers = await sendAll(origin, requests, 4);
    const counts = tally(answers)[surface];
    for (const answer of answers) {
      if (answer.klass === "5xx" || answer.klass === "dropped" || answer.problem) {
        failures.push(
          `${surface}: ${answer.status ?? answer.klass} ${answer.problem ?? ""} ${answer.request.method} ${answer.request.path.slice(0, 160)} ${JSON.stringify(answer.request.body?.slice(0, 160))}`,
        );
      }
    }
    expect(counts["4xx"], `${surface} refuses a good share with a 4xx`).toBeGreaterThan(RUNS_PER_SURFACE / 3);
  }
  expect(failures).toEqual([]);
  expect(await snapshot(target)).toEqual(before);
  expect((await health(origin)).status).toBe(200);
});
