import { eq } from "drizzle-orm";
import { generate } from "otplib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/db";
import { partners, staffSessions, staffUsers } from "@/lib/db/schema";
import { openWith, sealWith } from "@/lib/security/secrets/secret-box";
import { parseKeyring, sandboxKeyring } from "@/lib/config/keyring";
import { resealAll } from "@/lib/operator/reseal";
import { completeSecondFactor } from "./second-factor-steps";
import { createStaffSession, findStaffSession } from "./staff-sessions";
import { resealTotpSecrets } from "./totp-secret-store";
import { checkSecondFactor, confirmEnrolment, enrolmentSecret, enrolWithSecret } from "./two-factor";

const key = (fill: number) => Buffer.alloc(32, fill).toString("base64");
const K1 = parseKeyring(`k1:${key(1)}`);
const K2_K1 = parseKeyring(`k2:${key(2)},k1:${key(1)}`);
const K2 = parseKeyring(`k2:${key(2)}`);
const K3 = parseKeyring(`k3:${key(3)}`);
/** Where secrets were sealed before they were bound to their row: the column alone. */
const CONTEXT = "staff_users.totp_secret";
const PENDING_CONTEXT = "staff_sessions.totp_pending_secret";
const rowContext = (userId: string) => `${CONTEXT}:${userId}`;
const pendingContext = (userId: string) => `${PENDING_CONTEXT}:${userId}`;
const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

let database: Database;

beforeEach(async () => {
  database = await openDatabase({ dataDir: "memory://" });
  await database.db.insert(partners).values({ id: "agency-a", name: "Agency A", allowedOrigins: [] });
});
afterEach(async () => {
  await database.close();
});

async function member(id: string, totpSecret: string | null) {
  await database.db
    .insert(staffUsers)
    .values({ id, partnerId: "agency-a", role: "agent", email: `${id}@agency-a.example`, name: id, totpSecret });
}

async function enrolled(id: string, totpSecret: string) {
  await member(id, totpSecret);
  await database.db.update(staffUsers).set({ totpEnabledAt: new Date() }).where(eq(staffUsers.id, id));
}

async function session(tokenHash: string, userId: string, pending: string | null) {
  const expiresAt = new Date(Date.now() + 3_600_000);
  await database.db.insert(staffSessions).values({ tokenHash, userId, expiresAt, enrolment: "renew", totpPendingSecret: pending });
}

async function storedPending(tokenHash: string): Promise<string | null> {
  const [row] = await database.db
    .select({ pending: staffSessions.totpPendingSecret })
    .from(staffSessions)
    .where(eq(staffSessions.tokenHash, tokenHash));
  return row!.pending;
}

const codeNow = (secret: string) => generate({ secret, epoch: Math.floor(Date.now() / 1000) });

async function storedSecret(id: string): Promise<string | null> {
  const [row] = await database.db.select({ totpSecret: staffUsers.totpSecret }).from(staffUsers).where(eq(staffUsers.id, id));
  return row!.totpSecret;
}

describe("staff TOTP secrets through a SECRETS_KEYS rotation", () => {
  it("are sealed again under the new first key at start, so the old key can then be dropped", async () => {
    await member("sealed-k1", sealWith(K1, SECRET, CONTEXT));
    await member("plaintext", SECRET);
    await member("not-enrolled", null);

    expect(await resealTotpSecrets(database.db, K2_K1)).toEqual({ resealed: 2, unreadable: 0 });
    for (const id of ["sealed-k1", "plaintext"]) {
      const stored = (await storedSecret(id))!;
      expect(stored).toMatch(/^enc:v1:k2:/);
      // Opens with the new key alone: k1 can go.
      expect(openWith(K2, stored, rowContext(id))).toBe(SECRET);
    }
    expect(await storedSecret("not-enrolled")).toBeNull();
    // Already under the current key: nothing to do.
    expect(await resealTotpSecrets(database.db, K2_K1)).toEqual({ resealed: 0, unreadable: 0 });
  });

  it("counts a secret no listed key opens, leaves it as it was, and goes on with the others", async () => {
    const lost = sealWith(K3, SECRET, CONTEXT);
    await member("lost-key", lost);
    await member("sealed-k1", sealWith(K1, SECRET, CONTEXT));

    expect(await resealTotpSecrets(database.db, K2_K1)).toEqual({ resealed: 1, unreadable: 1 });
    expect(await storedSecret("lost-key")).toBe(lost);
    expect(await storedSecret("sealed-k1")).toMatch(/^enc:v1:k2:/);
  });
});

describe("staff TOTP secrets bound to their row", () => {
  it("a sealed secret copied to another member's row does not verify a code for that member, and is reported unreadable", async () => {
    await member("alice", null);
    await enrolled("bob", "placeholder");
    await enrolWithSecret(database.db, "alice", SECRET, []);
    const alices = (await storedSecret("alice"))!;
    expect(alices).toMatch(/^enc:v1:/);
    await database.db.update(staffUsers).set({ totpSecret: alices }).where(eq(staffUsers.id, "bob"));

    // Alice's code (the secret her row holds) opens nothing for Bob, and is no server error.
    expect(await checkSecondFactor(database.db, "bob", await codeNow(SECRET))).toEqual({ ok: false, reason: "unreadable" });
    expect(await checkSecondFactor(database.db, "alice", await codeNow(SECRET))).toEqual({ ok: true, method: "totp" });
    // Signing in as Bob with it: a wrong code, not a server error.
    const found = (await findStaffSession(database.db, await createStaffSession(database.db, "bob")))!;
    expect(await completeSecondFactor(database.db, found, await codeNow(SECRET), "203.0.113.9")).toEqual({ ok: false, reason: "invalid" });
    // The re-seal cannot open it either: counted, left as it was.
    expect(await resealTotpSecrets(database.db, sandboxKeyring())).toEqual({ resealed: 0, unreadable: 1 });
    expect(await storedSecret("bob")).toBe(alices);
  });

  it("an old row sealed for its column alone is re-sealed bound to its row by the start's re-seal, then verifies; unsealed, it opens nothing", async () => {
    const ring = sandboxKeyring();
    const old = sealWith(ring, SECRET, CONTEXT);
    await enrolled("alice", old);
    await enrolled("bob", "placeholder");
    // Reading never falls back to the column alone (no server error either).
    expect(await checkSecondFactor(database.db, "alice", await codeNow(SECRET))).toEqual({ ok: false, reason: "unreadable" });

    // What the server runs at start (lib/startup.ts), before its first request.
    const report = await resealAll(database.db, ring);
    expect(report.staffSecrets).toEqual({ resealed: 2, unreadable: 0 });
    expect(await checkSecondFactor(database.db, "alice", await codeNow(SECRET))).toMatchObject({ ok: true, method: "totp" });
    const bound = (await storedSecret("alice"))!;
    expect(bound).not.toBe(old);
    expect(bound.startsWith(`enc:v1:${ring[0].id}:`)).toBe(true);
    expect(openWith(ring, bound, rowContext("alice"))).toBe(SECRET);
    expect(() => openWith(ring, bound, CONTEXT)).toThrow();
    // Row-bound now: copied onto Bob, it does not open for him.
    await database.db.update(staffUsers).set({ totpSecret: bound }).where(eq(staffUsers.id, "bob"));
    expect(await checkSecondFactor(database.db, "bob", await codeNow(SECRET))).toEqual({ ok: false, reason: "unreadable" });
    // Done once: nothing left to re-seal (Bob's copy is counted, not rewritten).
    expect((await resealAll(database.db, ring)).staffSecrets).toEqual({ resealed: 0, unreadable: 1 });
  });

  it("the pending secret: bound to its session's member, an old column-only one re-sealed row-bound at start, then enrols", async () => {
    const ring = sandboxKeyring();
    await member("alice", null);
    await member("bob", null);
    await session("alice-session", "alice", sealWith(ring, SECRET, PENDING_CONTEXT));
    await session("bob-session", "bob", null);

    // The start's re-seal binds the old column-only pending secret to Alice; it then shows as it was.
    expect(await resealTotpSecrets(database.db, ring)).toEqual({ resealed: 1, unreadable: 0 });
    const bound = (await storedPending("alice-session"))!;
    expect(openWith(ring, bound, pendingContext("alice"))).toBe(SECRET);
    expect(() => openWith(ring, bound, PENDING_CONTEXT)).toThrow();
    expect(await enrolmentSecret(database.db, "alice-session")).toBe(SECRET);

    // Copied onto Bob's session, it neither confirms his enrolment nor is shown to him: he gets a new one.
    await database.db.update(staffSessions).set({ totpPendingSecret: bound }).where(eq(staffSessions.tokenHash, "bob-session"));
    expect(await confirmEnrolment(database.db, { tokenHash: "bob-session", userId: "bob" }, await codeNow(SECRET))).toBeUndefined();
    const shown = await enrolmentSecret(database.db, "bob-session");
    expect(shown).not.toBe(SECRET);
    expect(openWith(ring, (await storedPending("bob-session"))!, pendingContext("bob"))).toBe(shown);

    // Alice's own still confirms, and becomes her secret bound to her row.
    expect(await confirmEnrolment(database.db, { tokenHash: "alice-session", userId: "alice" }, await codeNow(SECRET))).toHaveLength(10);
    expect(openWith(ring, (await storedSecret("alice"))!, rowContext("alice"))).toBe(SECRET);
  });
});
