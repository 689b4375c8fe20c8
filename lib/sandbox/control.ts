import { Hono } from "hono";
import { z } from "zod";
import { ACCOUNTS, isAccount } from "./accounts";
import { AGENCY_HEADER, API_KEY_HEADER, etagOf, origin, wireOperation } from "./api";
import type { SandboxEngine } from "./engine";
import { DEFAULT_QA_TOKEN } from "./config";
import { authError, parseOrThrow, validationError } from "./errors";
import type { Faults } from "./faults";
import { classifyAddress, redactUrl } from "./targets";
import { clientIpFrom } from "@/lib/security/network/client-ip";

type Env = { Variables: { account: string } };

/** The client's address of a request to the sandbox (`env`: the server's bindings), or undefined when not known. */
export type ClientAddress = (request: Request, env: unknown) => string | undefined;

/** The socket's address of a request served by @hono/node-server (its `incoming` binding). */
export const nodeServerClientAddress: ClientAddress = (_request, env) => {
  const incoming = (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress;
};

/**
 * The client's address as the app serving the sandbox knows it (lib/security/network/client-ip.ts):
 * its socket's, stamped by the app's server, or behind `trustedProxyHops` proxies the one they
 * appended; never an address the client wrote itself.
 */
export function appClientAddress(trustedProxyHops: number): ClientAddress {
  return (request) => clientIpFrom(request.headers, trustedProxyHops);
}

const advanceSchema = z.object({
  seconds: z
    .number()
    .int()
    .positive()
    .max(10 * 365 * 24 * 3600),
});
const decisionSchema = z.object({ decision: z.enum(["approve", "decline", "error"]) });

/**
 * The QA control API (docs/contributors/architecture.md, "The sandbox"), mounted under `/sandbox/_control`. Not part of the partner API.
 *
 * Every call acts on one sandbox account: the caller's own, named by its key in the key header
 * (as in the partner API), or, with the operator's QA token (`Authorization: Bearer <token>`), the
 * account named in the `account` query parameter (`?account=agency_201`). A key never reaches
 * another account's operations, clock or faults. The published QA token (the default, which
 * anyone can read) acts on any account only for a client on this machine, and never where the
 * sandbox is publicly reachable: anyone else holding it would reset or drive the accounts of the
 * QA teams sharing the sandbox. From elsewhere, each team acts with its account's key, or the
 * operator sets their own token.
 */
export function controlApi(
  engine: SandboxEngine,
  faults: Faults,
  options: { qaToken: string; publiclyReachable?: boolean; clientAddress?: ClientAddress },
) {
  const published = options.qaToken === DEFAULT_QA_TOKEN;
  const clientAddress = options.clientAddress ?? nodeServerClientAddress;
  const control = new Hono<Env>();

  control.use("*", async (c, next) => {
    const authorization = c.req.header("Authorization");
    if (authorization !== undefined) {
      // The published token opens nothing where anyone else can reach the sandbox: the operator sets their own.
      if (published && options.publiclyReachable === true)
        throw authError("The published QA token is not accepted where the sandbox is publicly reachable: set SANDBOX_QA_TOKEN");
      const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
      if (token === undefined || !timingSafeEqual(token, options.qaToken)) throw authError("Invalid QA token");
      if (published && !isThisMachine(clientAddress(c.req.raw, c.env)))
        throw authError("The published QA token is accepted from this machine only: act with your account's key, or set SANDBOX_QA_TOKEN");
      const account = c.req.query("account");
      if (account === undefined || !isAccount(account)) {
        throw validationError([
          { field: "account", message: `must name the account to act on with the QA token: one of ${ACCOUNTS.join(", ")}` },
        ]);
      }
      c.set("account", account);
    } else {
      // The agency header is not needed here: an account is the key's, whichever agency it acts for.
      const caller = engine.authenticate(c.req.header(API_KEY_HEADER) ?? null, c.req.header(AGENCY_HEADER) ?? null, { agencyExempt: true });
      c.set("account", caller.account);
    }
    await next();
  });

  control.post("/reset", async (c) => {
    const account = c.get("account");
    await engine.reset(account);
    await faults.clear(account);
    return c.json({ reset: true, account, now: new Date(await engine.now(account)).toISOString() });
  });

  control.get("/clock", async (c) => c.json(await clockBody(engine, c.get("account"))));

  control.post("/clock/advance", async (c) => {
    const body = parseOrThrow(advanceSchema, await c.req.json().catch(() => undefined));
    await engine.advance(c.get("account"), body.seconds);
    await engine.idle();
    return c.json(await clockBody(engine, c.get("account")));
  });

  control.get("/operations/:id", async (c) => {
    const operation = await engine.getOperationOfAccount(c.get("account"), c.req.param("id"));
    return c.json({
      ...wireOperation(operation, origin(c, engine)),
      account: operation.account,
      agencyId: operation.agencyId,
      etag: etagOf(operation),
      createdAt: new Date(operation.createdAt).toISOString(),
      triggers: [...operation.triggers],
      history: operation.history,
      // The items as the partner sent them: the sandbox keeps them whatever their field names.
      flights: operation.request.flights ?? [],
      hotels: operation.request.hotels ?? [],
      services: operation.request.services ?? [],
      financing: operation.financing && {
        companyName: operation.financing.offer.companyName,
        installments: operation.financing.offer.installments,
        offerId: operation.financing.offer.id,
        refusedProviders: operation.financing.refusedProviders,
      },
    });
  });

  control.post("/operations/:id/decision", async (c) => {
    const { id } = await engine.getOperationOfAccount(c.get("account"), c.req.param("id"));
    const body = parseOrThrow(decisionSchema, await c.req.json().catch(() => undefined));
    const operation = await engine.decide(id, body.decision);
    await engine.idle();
    return c.json(wireOperation(operation, origin(c, engine)));
  });

  control.get("/operations/:id/webhooks", async (c) => {
    const operation = await engine.getOperationOfAccount(c.get("account"), c.req.param("id"));
    const events = await engine.eventsOf(operation.id);
    return c.json(
      events.map((event) => ({
        eventId: event.eventId,
        status: event.status,
        // Origin and path shape only: the path of a webhook URL may be its secret.
        url: redactUrl(event.url),
        attempts: event.attemptCount,
        deliveries: event.attempts,
        lastResponse: event.attempts.at(-1) ?? null,
        acknowledged: event.acknowledged,
        supersededBy: event.supersededBy ?? null,
        nextAttemptAt: event.nextAttemptAt === undefined ? null : new Date(event.nextAttemptAt).toISOString(),
      })),
    );
  });

  control.post("/webhooks/redeliver", async (c) => {
    const delivered = await engine.redeliverAll(c.get("account"));
    await engine.idle();
    return c.json({ delivered });
  });

  control.get("/faults", async (c) => c.json({ faults: await faults.list(c.get("account")) }));
  control.put("/faults", async (c) =>
    c.json({ faults: await faults.replace(c.get("account"), await c.req.json().catch(() => undefined)) }),
  );
  control.delete("/faults", async (c) => {
    await faults.clear(c.get("account"));
    return c.json({ faults: [] });
  });

  return control;
}

async function clockBody(engine: SandboxEngine, account: string) {
  const clock = await engine.clock(account);
  return { account, now: new Date(clock.now).toISOString(), offsetSeconds: clock.offsetSeconds };
}

function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Whether a client's address is this machine's loopback (an unknown one is not). */
function isThisMachine(address: string | undefined): boolean {
  return address !== undefined && classifyAddress(address) === "loopback";
}
