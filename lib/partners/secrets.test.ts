import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAppContext } from "@/lib/app-context";
import { notificationPayload } from "@/lib/checkout/session/session-state";
import { deliverDueNotifications } from "@/lib/checkout/background/notifications";
import { createSession } from "@/lib/checkout/session/sessions";
import { DEMO_SECRET, sessionInput, testContext } from "@/lib/checkout/testing/context";
import { openDatabase, type Database } from "@/lib/db";
import { partnerNotifications, partners } from "@/lib/db/schema";
import { DEMO_GROUP_PARTNER_ID, DEMO_PARTNER_ID, demoSigningSecret, seedDemoStaff } from "@/lib/demo/seed";
import { parseEnv } from "@/lib/config/env";
import { SecretOpenError } from "@/lib/security/secrets/secret-box";
import { parseKeyring } from "@/lib/config/keyring";
import { partnerById } from "./partners";
import { openPartnerSecret, resealPartnerSecrets, sealPartnerSecret } from "./secrets";

const K1 = parseKeyring(`k1:${Buffer.alloc(32, 1).toString("base64")}`);
const K2_K1 = parseKeyring(`k2:${Buffer.alloc(32, 2).toString("base64")},k1:${Buffer.alloc(32, 1).toString("base64")}`);
const K2 = parseKeyring(`k2:${Buffer.alloc(32, 2).toString("base64")}`);
const API_KEY = "fk_live_agency_key_0123456789";
const SIGNING = "whsec_c2lnbmluZy1zZWNyZXQtb2YtdGhlLWFnZW5jeQ==";

let database: Database;

beforeEach(async () => {
  database = await openDatabase({ dataDir: "memory://" });
});
afterEach(async () => {
  await database.close();
});

/** The two columns as stored, read with plain SQL: what a copy of the database shows. */
async function stored(id: string, db = database.db): Promise<{ financing_api_key: string | null; signing_secret: string | null }> {
  const result = await db.execute(sql`select financing_api_key, signing_secret from partners where id = ${id}`);
  const rows = (Array.isArray(result) ? result : (result as unknown as { rows: unknown[] }).rows) as {
    financing_api_key: string | null;
    signing_secret: string | null;
  }[];
  return rows[0]!;
}

async function insertPartner(id: string, values: { financingApiKey: string | null; signingSecret: string | null }) {
  await database.db.insert(partners).values({ id, name: id, allowedOrigins: [], ...values });
}

// The first test seeds the demo (hashing every demo account's password, slow on purpose): over a
// minute on a busy 2-core machine, so a generous bound.
describe("partner secrets at rest", { timeout: 300_000 }, () => {
  it("the demo group's partner API key and the demo partner's signing secret are not stored in plaintext, and open for use", async () => {
    const { database: checkoutDb, partner } = await testContext("http://127.0.0.1:9");
    const db = checkoutDb.db;
    try {
      await seedDemoStaff(db, { appUrl: "http://127.0.0.1:3999" });
      const group = await stored(DEMO_GROUP_PARTNER_ID, db);
      expect(group.financing_api_key).toMatch(/^enc:v1:/);
      expect(group.financing_api_key).not.toContain("fk_test_sandbox_group_1");
      const demo = await stored(DEMO_PARTNER_ID, db);
      expect(demo.signing_secret).toMatch(/^enc:v1:/);
      expect(demo.signing_secret).not.toContain(demoSigningSecret(DEMO_SECRET).slice(6));
      expect(openPartnerSecret(partner, "signingSecret")).toBe(demoSigningSecret(DEMO_SECRET));

      // The composition opens the partner's own key for its API calls.
      const ctx = createAppContext(db, parseEnv({}));
      const groupPartner = (await partnerById(db, DEMO_GROUP_PARTNER_ID))!;
      expect(ctx.credentialFor(groupPartner).apiKey).toBe("fk_test_sandbox_group_1");
    } finally {
      await checkoutDb.close();
    }
  });

  it("signs partner notifications with the opened signing secret", async () => {
    const { ctx, database: checkoutDb, partner } = await testContext("http://127.0.0.1:9");
    try {
      const { session } = await createSession(ctx.db, partner, sessionInput());
      await ctx.db.delete(partnerNotifications);
      const payload = notificationPayload(session);
      await ctx.db
        .insert(partnerNotifications)
        .values({ id: "msg_sealed_1", sessionId: session.id, partnerId: partner.id, partnerSeq: 1, state: "choosing", payload });
      // The partner's endpoint, on loopback (allowed on the sandbox): it records what it was sent.
      const sent: { headers: Record<string, string>; body: string }[] = [];
      const endpoint = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on("data", (chunk: Buffer) => chunks.push(chunk));
        request.on("end", () => {
          sent.push({ headers: request.headers as Record<string, string>, body: Buffer.concat(chunks).toString() });
          response.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
      const { port } = endpoint.address() as AddressInfo;
      await ctx.db
        .update(partners)
        .set({ notificationUrl: `http://127.0.0.1:${port}/notify` })
        .where(eq(partners.id, partner.id));
      try {
        expect(await deliverDueNotifications(ctx, { environment: "sandbox" })).toBe(1);
      } finally {
        endpoint.closeAllConnections();
        await new Promise((resolve) => endpoint.close(resolve));
      }
      // The partner's side verifies with the plaintext secret it was given.
      const verified = new Webhook(demoSigningSecret(DEMO_SECRET)).verify(sent[0]!.body, sent[0]!.headers) as { data: { id: string } };
      expect(verified.data.id).toBe(session.id);
    } finally {
      await checkoutDb.close();
    }
  });

  it("re-seals plaintext and values of an older key under the current key, once, and rotation drops the old key", async () => {
    await insertPartner("agency-a", { financingApiKey: API_KEY, signingSecret: SIGNING });
    await insertPartner("agency-b", { financingApiKey: null, signingSecret: null });

    expect(await resealPartnerSecrets(database.db, K1)).toBe(2);
    const sealed = await stored("agency-a");
    expect(sealed.financing_api_key).toMatch(/^enc:v1:k1:/);
    expect(sealed.signing_secret).toMatch(/^enc:v1:k1:/);
    expect(JSON.stringify(sealed)).not.toContain(API_KEY);
    expect(JSON.stringify(sealed)).not.toContain(SIGNING.slice(6));
    expect(await stored("agency-b")).toEqual({ financing_api_key: null, signing_secret: null });
    // A key stored before its last four characters were kept gets them, for the console to show.
    expect((await partnerById(database.db, "agency-a"))?.financingKeyLast4).toBe(API_KEY.slice(-4));
    expect((await partnerById(database.db, "agency-b"))?.financingKeyLast4).toBeNull();
    expect(await resealPartnerSecrets(database.db, K1)).toBe(0);

    // Rotation: the new key first, restart (re-seal), then the old key dropped.
    expect(await resealPartnerSecrets(database.db, K2_K1)).toBe(2);
    expect((await stored("agency-a")).financing_api_key).toMatch(/^enc:v1:k2:/);
    const partner = (await partnerById(database.db, "agency-a"))!;
    expect(openPartnerSecret(partner, "financingApiKey", K2)).toBe(API_KEY);
    expect(openPartnerSecret(partner, "signingSecret", K2)).toBe(SIGNING);
    expect(await resealPartnerSecrets(database.db, K2)).toBe(0);
  });

  it("refuses to re-seal what no listed key opens, and changes nothing", async () => {
    await insertPartner("agency-a", {
      financingApiKey: sealPartnerSecret("agency-a", "financingApiKey", API_KEY, K1),
      signingSecret: null,
    });
    const before = await stored("agency-a");
    await expect(resealPartnerSecrets(database.db, K2)).rejects.toThrow(SecretOpenError);
    await expect(resealPartnerSecrets(database.db, K2)).rejects.toThrow(/"k1", which SECRETS_KEYS does not list/);
    expect(await stored("agency-a")).toEqual(before);
  });

  it("does not open a secret copied onto another partner", async () => {
    const copied = sealPartnerSecret("agency-a", "financingApiKey", API_KEY, K1);
    await insertPartner("agency-b", { financingApiKey: copied, signingSecret: null });
    const partner = (await database.db.select().from(partners).where(eq(partners.id, "agency-b")))[0]!;
    expect(() => openPartnerSecret(partner, "financingApiKey", K1)).toThrow(SecretOpenError);
  });
});
