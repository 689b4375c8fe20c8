import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { demoPartnerBackend, type DemoBackendSettings } from "./partner-backend";
import { demoSigningSecret } from "./seed";

const SECRET = "demo_partner_secret_for_tests";
const SANDBOX: DemoBackendSettings = { secret: SECRET, sandbox: true };
const URL_ = "http://127.0.0.1/api/demo/notifications";

/** A notification as the checkout sends it: signed with `key` now (the signature's freshness is checked). */
function notification(id: string, data: { id?: string; state?: string; test?: boolean }, key = demoSigningSecret(SECRET)): Request {
  const body = JSON.stringify({ type: "checkout_session.updated", data });
  const timestamp = new Date();
  const signature = new Webhook(key).sign(id, timestamp, body);
  const headers = { "webhook-id": id, "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)), "webhook-signature": signature };
  return new Request(URL_, { method: "POST", headers, body });
}

const reading = (query = "", token = SECRET) => new Request(`${URL_}${query}`, { headers: { authorization: `Bearer ${token}` } });

function backend(keep?: number) {
  return demoPartnerBackend({ signingSecrets: (secret) => Promise.resolve([demoSigningSecret(secret)]), keep });
}

describe("the demo partner's backend", () => {
  it("keeps a verified notification once per webhook-id, counting deliveries, and reads it back by session", async () => {
    const demo = backend();
    expect((await demo.receive(notification("msg_1", { id: "cs_1", state: "approved" }), SANDBOX)).status).toBe(204);
    expect((await demo.receive(notification("msg_1", { id: "cs_1", state: "approved" }), SANDBOX)).status).toBe(204);
    expect((await demo.receive(notification("msg_2", { id: "cs_2", state: "denied" }), SANDBOX)).status).toBe(204);

    const one = await demo.read(reading("?session=cs_1"), SANDBOX);
    expect(one.headers.get("cache-control")).toBe("no-store");
    expect(await one.json()).toMatchObject({ notifications: [{ id: "msg_1", type: "checkout_session.updated", deliveries: 2 }] });
    const all = (await (await demo.read(reading(), SANDBOX)).json()) as { notifications: { id: string }[] };
    expect(all.notifications.map((n) => n.id)).toEqual(["msg_1", "msg_2"]);
  });

  it("refuses a notification signed with another key (401) and keeps nothing of it", async () => {
    const demo = backend();
    const forged = notification("msg_1", { id: "cs_1" }, `whsec_${Buffer.from("another partner's key").toString("base64")}`);
    expect((await demo.receive(forged, SANDBOX)).status).toBe(401);
    expect(await (await demo.read(reading(), SANDBOX)).json()).toEqual({ notifications: [] });
  });

  it("keeps the latest ones only, and forgets the ids it dropped", async () => {
    const demo = backend(2);
    for (const id of ["msg_1", "msg_2", "msg_3"]) await demo.receive(notification(id, { id: "cs_1" }), SANDBOX);
    const kept = (await (await demo.read(reading(), SANDBOX)).json()) as { notifications: { id: string }[] };
    expect(kept.notifications.map((n) => n.id)).toEqual(["msg_2", "msg_3"]);
  });

  it("reads back only with the demo partner's secret, on the sandbox, and is not there without a secret", async () => {
    const demo = backend();
    expect((await demo.read(reading("", "wrong"), SANDBOX)).status).toBe(401);
    expect((await demo.read(new Request(URL_), SANDBOX)).status).toBe(401);
    expect((await demo.read(reading(), { secret: SECRET, sandbox: false })).status).toBe(404);
    expect((await demo.read(reading(), { secret: undefined, sandbox: true })).status).toBe(404);
    expect((await demo.receive(notification("msg_1", {}), { secret: undefined, sandbox: true })).status).toBe(404);
  });
});
