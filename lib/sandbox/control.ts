import { Hono } from "hono";
import { z } from "zod";
import { AGENCY_HEADER, API_KEY_HEADER, etagOf, origin, wireOperation } from "./api";
import type { Caller, SandboxEngine } from "./engine";
import { parseOrThrow } from "./errors";
import type { Faults } from "./faults";

type Env = { Variables: { caller: Caller } };

const advanceSchema = z.object({ seconds: z.number().int().positive().max(10 * 365 * 24 * 3600) });
const decisionSchema = z.object({ decision: z.enum(["approve", "decline", "error"]) });

/**
 * The QA control API (design.md §6), mounted under `/sandbox/_control`. Same key header as the
 * partner API; not part of it.
 */
export function controlApi(engine: SandboxEngine, faults: Faults) {
  const control = new Hono<Env>();

  control.use("*", async (c, next) => {
    // Operation-scoped calls need the agency (as in the partner API); the others are global.
    const scoped = c.req.path.includes("/_control/operations/");
    c.set("caller", engine.authenticate(c.req.header(API_KEY_HEADER) ?? null, c.req.header(AGENCY_HEADER) ?? null, { agencyExempt: !scoped }));
    await next();
  });

  control.post("/reset", async (c) => {
    await engine.idle();
    engine.reset();
    faults.clear();
    return c.json({ reset: true, now: new Date(engine.now()).toISOString() });
  });

  control.get("/clock", (c) => c.json(clockBody(engine)));

  control.post("/clock/advance", async (c) => {
    const body = parseOrThrow(advanceSchema, await c.req.json().catch(() => undefined));
    await engine.advance(body.seconds);
    await engine.idle();
    return c.json(clockBody(engine));
  });

  control.get("/operations/:id", (c) => {
    const operation = engine.getOperation(c.get("caller"), c.req.param("id"));
    return c.json({
      ...wireOperation(operation, origin(c)),
      etag: etagOf(operation),
      createdAt: new Date(operation.createdAt).toISOString(),
      triggers: [...operation.triggers],
      history: operation.history,
      financing: operation.financing && {
        companyName: operation.financing.offer.companyName,
        installments: operation.financing.offer.installments,
        offerId: operation.financing.offer.id,
        refusedProviders: operation.financing.refusedProviders,
      },
    });
  });

  control.post("/operations/:id/decision", async (c) => {
    const operation = engine.getOperation(c.get("caller"), c.req.param("id"));
    const body = parseOrThrow(decisionSchema, await c.req.json().catch(() => undefined));
    engine.decide(operation, body.decision);
    await engine.idle();
    return c.json(wireOperation(operation, origin(c)));
  });

  control.get("/operations/:id/webhooks", (c) => {
    const operation = engine.getOperation(c.get("caller"), c.req.param("id"));
    return c.json(
      engine.eventsOf(operation.id).map((event) => ({
        eventId: event.eventId,
        status: event.status,
        url: event.url,
        attempts: event.attempts.length,
        deliveries: event.attempts,
        lastResponse: event.attempts.at(-1) ?? null,
        acknowledged: event.acknowledged,
        supersededBy: event.supersededBy ?? null,
        nextAttemptAt: event.nextAttemptAt === undefined ? null : new Date(event.nextAttemptAt).toISOString(),
      })),
    );
  });

  control.post("/webhooks/redeliver", async (c) => {
    const delivered = await engine.redeliverAll();
    await engine.idle();
    return c.json({ delivered });
  });

  control.get("/faults", (c) => c.json({ faults: faults.list() }));
  control.put("/faults", async (c) => c.json({ faults: faults.replace(await c.req.json().catch(() => undefined)) }));
  control.delete("/faults", (c) => {
    faults.clear();
    return c.json({ faults: [] });
  });

  return control;
}

function clockBody(engine: SandboxEngine) {
  return { now: new Date(engine.now()).toISOString(), offsetSeconds: engine.clockOffsetSeconds() };
}
