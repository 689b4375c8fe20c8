import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkoutSessions, customerData } from "@/lib/db/schema";
import { parseKeyring } from "@/lib/config/keyring";
import { SecretOpenError } from "@/lib/security/secrets/secret-box";
import { BROWSER, customerDraft, sessionInput } from "../testing/context";
import { offlineWorld } from "../testing/offline-world";
import { customerHashes, normaliseDocumentNumber, normaliseEmail, openCustomerDraft, sealCustomerDraft } from "./customer-sealing";
import {
  eraseCustomerData,
  findSessionsByCustomer,
  getCustomerDraft,
  readCustomerData,
  resealCustomerData,
  saveCustomerData,
} from "./customer-store";
import { editorTokenHash } from "./customer-editor";
import { createSession } from "./sessions";
import { submitCustomer } from "./submit";

const K1 = parseKeyring(`k1:${Buffer.alloc(32, 1).toString("base64")}`);
const K2_K1 = parseKeyring(`k2:${Buffer.alloc(32, 2).toString("base64")},k1:${Buffer.alloc(32, 1).toString("base64")}`);
const K2 = parseKeyring(`k2:${Buffer.alloc(32, 2).toString("base64")}`);

const world = offlineWorld();

/** A full customer, with a document number and an e-mail of their own. */
function customer(documentId: string, email: string) {
  return { ...customerDraft(email), documentId };
}

async function newSession(): Promise<string> {
  return (await createSession(world.ctx.db, world.partner, sessionInput())).session.id;
}

/** The row as stored, read with plain SQL: what a copy of the database shows. */
async function rawRow(sessionId: string): Promise<Record<string, unknown>> {
  const result = await world.ctx.db.execute(sql`select * from customer_data where session_id = ${sessionId}`);
  const rows = (Array.isArray(result) ? result : (result as unknown as { rows: unknown[] }).rows) as Record<string, unknown>[];
  return rows[0]!;
}

/** Writes a row as if sealed under `keyring` (the store seals under the configured one). */
async function storeUnder(keyring: typeof K1, sessionId: string, draft: ReturnType<typeof customer>) {
  await world.ctx.db
    .insert(customerData)
    .values({ sessionId, data: sealCustomerDraft(sessionId, draft, keyring), ...customerHashes(draft, keyring), submitted: true })
    .onConflictDoUpdate({
      target: customerData.sessionId,
      set: { data: sealCustomerDraft(sessionId, draft, keyring), ...customerHashes(draft, keyring) },
    });
}

describe("the customer's data at rest", () => {
  it("seals and opens again, only for its own session", () => {
    const draft = customer("12345678Z", "ana@example.com");
    const sealed = sealCustomerDraft("cs_one", draft, K1);
    expect(sealed).toMatch(/^enc:v1:k1:/);
    expect(openCustomerDraft("cs_one", sealed, K1)).toEqual(draft);
    expect(() => openCustomerDraft("cs_two", sealed, K1)).toThrow(SecretOpenError);
    expect(() => openCustomerDraft("cs_one", sealed, K2)).toThrow(SecretOpenError);
  });

  it("is stored with no plaintext: not the document number, e-mail, phone or birth date", async () => {
    const draft = customer("87654321X", "Plain.Text@Example.com");
    const prefilled = (await createSession(world.ctx.db, world.partner, sessionInput({ customer: draft }))).session.id;
    const submitted = await newSession();
    expect(await saveCustomerData(world.ctx.db, submitted, draft, editorTokenHash(BROWSER))).toBe(true);
    for (const id of [prefilled, submitted]) {
      const row = await rawRow(id);
      const everything = JSON.stringify(row);
      expect(row.data).toMatch(/^enc:v1:/);
      for (const value of [draft.documentId, draft.email, draft.phone, draft.birthDate, draft.lastName]) {
        expect(everything).not.toContain(value);
      }
      expect(row.document_hash).toEqual(expect.any(String));
      expect(row.email_hash).toEqual(expect.any(String));
      expect(await getCustomerDraft(world.ctx.db, id)).toMatchObject({ status: "present", draft });
    }
  });

  it("copied onto another session's row, does not open there: that row's data is unavailable, not an error", async () => {
    const source = await newSession();
    const target = await newSession();
    await saveCustomerData(world.ctx.db, source, customer("11111111H", "source@example.com"), editorTokenHash(BROWSER));
    await saveCustomerData(world.ctx.db, target, customer("22222222J", "target@example.com"), editorTokenHash(BROWSER));
    const [copied] = await world.ctx.db.select({ data: customerData.data }).from(customerData).where(eq(customerData.sessionId, source));
    await world.ctx.db.update(customerData).set({ data: copied!.data }).where(eq(customerData.sessionId, target));

    expect(await getCustomerDraft(world.ctx.db, target)).toMatchObject({ status: "unavailable", submitted: true });
    expect((await readCustomerData(world.ctx.db, [source, target])).get(target)).toEqual({ status: "unavailable" });
    expect((await readCustomerData(world.ctx.db, [source])).get(source)).toMatchObject({ status: "present" });
    // The customer's submit over it is refused, not a crash, and the row stays as it is.
    expect(await submitCustomer(world.ctx, target, customer("22222222J", "target@example.com"), BROWSER)).toMatchObject({
      ok: false,
      failure: "unavailable",
    });
  });
});

describe("the re-seal", () => {
  it("seals again under the first key what an older key sealed (k1, then ring k2,k1): it opens under k2 alone, and is still found", async () => {
    const id = await newSession();
    const draft = customer("33333333P", "rotation@example.com");
    await storeUnder(K1, id, draft);
    // Before the re-seal, the ring k2,k1 finds it by the hashes written under k1.
    expect(await findSessionsByCustomer(world.ctx.db, { documentNumber: "33333333P" }, K2_K1)).toContainEqual({
      sessionId: id,
      partnerId: world.partner.id,
    });

    const report = await resealCustomerData(world.ctx.db, K2_K1);
    expect(report.resealed).toBeGreaterThanOrEqual(1);
    expect((await rawRow(id)).data).toMatch(/^enc:v1:k2:/);
    expect(await getCustomerDraft(world.ctx.db, id, K2)).toMatchObject({ status: "present", draft });
    // k1 dropped: the search still finds it, under k2 alone.
    expect(await findSessionsByCustomer(world.ctx.db, { documentNumber: "33333333p", email: "ROTATION@example.com" }, K2)).toEqual([
      { sessionId: id, partnerId: world.partner.id },
    ]);
    // Done once: a second run under the same ring has nothing of this row to do.
    await resealCustomerData(world.ctx.db, K2_K1);
    expect((await rawRow(id)).data).toMatch(/^enc:v1:k2:/);
  });

  it("seals a row stored in plaintext before sealing existed, and writes its hashes", async () => {
    const id = await newSession();
    const draft = customer("44444444A", "legacy@example.com");
    await world.ctx.db.insert(customerData).values({ sessionId: id, data: JSON.stringify(draft), submitted: true });
    expect(await getCustomerDraft(world.ctx.db, id)).toMatchObject({ status: "present", draft });

    await resealCustomerData(world.ctx.db, K1);
    const row = await rawRow(id);
    expect(row.data).toMatch(/^enc:v1:k1:/);
    expect(JSON.stringify(row)).not.toContain("44444444A");
    expect(await findSessionsByCustomer(world.ctx.db, { documentNumber: "44444444-a" }, K1)).toEqual([
      { sessionId: id, partnerId: world.partner.id },
    ]);
  });

  it("reports a row no key of the ring opens, by count, and leaves it: its readers say unavailable", async () => {
    const id = await newSession();
    await storeUnder(K1, id, customer("55555555K", "lost@example.com"));
    const before = (await rawRow(id)).data;

    const report = await resealCustomerData(world.ctx.db, K2);
    expect(report.unreadable).toBeGreaterThanOrEqual(1);
    expect((await rawRow(id)).data).toBe(before);
    expect(await getCustomerDraft(world.ctx.db, id, K2)).toMatchObject({ status: "unavailable" });
  });
});

describe("the search by keyed hashes", () => {
  it("normalises a document number and an e-mail address", () => {
    expect(normaliseDocumentNumber(" 12 345-678 z ")).toBe("12345678Z");
    expect(normaliseEmail("  Ana.Ruiz@Example.COM ")).toBe("ana.ruiz@example.com");
  });

  it("finds a customer by a document number written differently and an e-mail in another case; not after erasure", async () => {
    const id = await newSession();
    await saveCustomerData(world.ctx.db, id, customer("X1234567L", "Search.Me@Example.com"), editorTokenHash(BROWSER));
    const found = [{ sessionId: id, partnerId: world.partner.id }];

    expect(await findSessionsByCustomer(world.ctx.db, { documentNumber: "x 123-4567 l" })).toEqual(found);
    expect(await findSessionsByCustomer(world.ctx.db, { email: "  SEARCH.me@example.COM" })).toEqual(found);
    expect(await findSessionsByCustomer(world.ctx.db, { documentNumber: "X1234567L", email: "search.me@example.com" })).toEqual(found);
    expect(await findSessionsByCustomer(world.ctx.db, { documentNumber: "X1234567L", email: "other@example.com" })).toEqual([]);
    expect(await findSessionsByCustomer(world.ctx.db, {})).toEqual([]);
    expect(await findSessionsByCustomer(world.ctx.db, { documentNumber: " - " })).toEqual([]);

    expect(await eraseCustomerData(world.ctx.db, id, new Date())).toBe("erased");
    expect(await findSessionsByCustomer(world.ctx.db, { documentNumber: "X1234567L" })).toEqual([]);
    expect(await findSessionsByCustomer(world.ctx.db, { email: "search.me@example.com" })).toEqual([]);
  });
});

describe("the erased state", () => {
  it("empties the data and both hashes in one go, and says when it was erased already", async () => {
    const id = await newSession();
    await saveCustomerData(world.ctx.db, id, customer("66666666Q", "erase@example.com"), editorTokenHash(BROWSER));
    const at = new Date("2026-12-01T10:00:00.000Z");

    expect(await eraseCustomerData(world.ctx.db, id, at)).toBe("erased");
    expect(await rawRow(id)).toMatchObject({ data: null, document_hash: null, email_hash: null });
    expect(await getCustomerDraft(world.ctx.db, id)).toMatchObject({ status: "erased", erasedAt: at });
    expect(await eraseCustomerData(world.ctx.db, id, new Date("2026-12-02T10:00:00.000Z"))).toBe("already_erased");
    expect(await getCustomerDraft(world.ctx.db, id)).toMatchObject({ status: "erased", erasedAt: at });
    expect(await eraseCustomerData(world.ctx.db, "cs_none0123456789", at)).toBe("none");
  });

  it("takes no new data: the customer's submit is refused as erased, and nothing is stored", async () => {
    const id = await newSession();
    await saveCustomerData(world.ctx.db, id, customer("77777777B", "again@example.com"), editorTokenHash(BROWSER));
    await eraseCustomerData(world.ctx.db, id, new Date());

    expect(await submitCustomer(world.ctx, id, customer("77777777B", "again@example.com"), BROWSER)).toMatchObject({
      ok: false,
      failure: "erased",
    });
    expect(await saveCustomerData(world.ctx.db, id, customer("77777777B", "again@example.com"), editorTokenHash(BROWSER))).toBe(false);
    expect(await rawRow(id)).toMatchObject({ data: null, document_hash: null, email_hash: null });
    // The session itself is untouched.
    const [session] = await world.ctx.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id));
    expect(session).toBeDefined();
  });
});
