import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../lib/identity/auth";
import { completeEnrolment, openEnrolmentSession } from "../lib/identity/second-factor-steps";
import { findStaffSession } from "../lib/identity/staff-sessions";
import { consumeLink, ENROLMENT_PURPOSES, LINK_PATH } from "../lib/identity/links";
import { enrolmentSecret } from "../lib/identity/two-factor";
import { openDatabase, type Database } from "../lib/db/connection";
import { auditEvents, customerData, partners, staffUsers } from "../lib/db/schema";
import { sealCustomerDraft } from "../lib/checkout/session/customer-sealing";
import { createSession } from "../lib/checkout/session/sessions";
import { customerDraft, sessionInput } from "../lib/checkout/testing/context";
import { parseKeyring, SANDBOX_SECRETS_KEY_BASE64, SANDBOX_SECRETS_KEY_ID } from "../lib/config/keyring";
import { partnerById } from "../lib/partners/partners";
import { throwawayDatabase } from "../lib/db/testing/throwaway";
import { EXIT, runAdmin } from "./admin-cli";

/*
 * The operator's bootstrap from the command line, as the shell runs it: on a fresh database (its
 * migrations included), on PGlite and on PostgreSQL, the server running (PostgreSQL) or not; a
 * one-time link, never a password; exit codes a script can rely on; the database closed after.
 */

const APP_URL = "https://checkout.example";
const PASSWORD = "operator-strong-passphrase-1";

interface Run {
  code: number;
  out: string;
  err: string;
}

/**
 * Each command opens the database and closes it, as the shell runs it, and a test runs up to ten of
 * them (on PGlite, each a WebAssembly PostgreSQL booting from its folder): on a busy 2-core machine
 * one test took minutes, so a generous bound.
 */
const COMMANDS_TIMEOUT_MS = 300_000;

function suite(name: string, target: () => { env: Record<string, string>; open: () => Promise<Database> }) {
  describe(`npm run admin (${name})`, { timeout: COMMANDS_TIMEOUT_MS }, () => {
    const run = async (...argv: string[]): Promise<Run> => {
      let out = "";
      let err = "";
      const code = await runAdmin({
        argv,
        env: { ...target().env, APP_URL },
        out: (text) => (out += text),
        err: (text) => (err += text),
      });
      return { code, out, err };
    };
    /** The database as the server opens it, after the command closed it. */
    const withDatabase = async <T>(fn: (database: Database) => Promise<T>): Promise<T> => {
      const database = await target().open();
      try {
        return await fn(database);
      } finally {
        await database.close();
      }
    };

    it("refuses a wrong command line with the usage and exit code 2, and opens no database", async () => {
      for (const argv of [
        [],
        ["make-me-admin"],
        ["create-operator"],
        ["create-operator", "--email", "ops@example.com"],
        ["create-operator", "--name", "Ops"],
        ["create-operator", "--email", "", "--name", "Ops"],
        ["create-operator", "--email", "ops@example.com", "--name", "Ops", "--password", "x"],
        ["create-operator", "--email", "ops@example.com", "--name", "Ops", "extra"],
        ["list-operators", "--email", "ops@example.com"],
        ["disable-operator"],
      ]) {
        const result = await run(...argv);
        expect(result.code, argv.join(" ")).toBe(EXIT.usage);
        expect(result.out).toBe("");
        expect(result.err).toContain("usage: npm run admin -- <command>");
      }
      expect((await run("--help")).code).toBe(EXIT.ok);
      // Bad values: said, exit 2, nothing created.
      expect(await run("create-operator", "--email", "not-an-email", "--name", "Ops")).toMatchObject({
        code: EXIT.usage,
        err: expect.stringContaining("Not an e-mail address"),
      });
      expect(await run("create-operator", "--email", "ops@example.com", "--name", "x".repeat(101))).toMatchObject({ code: EXIT.usage });
      expect(await run("list-operators")).toMatchObject({ code: EXIT.ok, out: "", err: expect.stringContaining("No operators yet") });
    });

    it("creates an operator with no password and prints a one-time link that sets one, with the second factor", async () => {
      const created = await run("create-operator", "--email", " Olga@Platform.example ", "--name", "Olga Operadora");
      expect(created.code).toBe(EXIT.ok);
      const link = created.out.trim();
      expect(link).toMatch(new RegExp(`^${APP_URL}${LINK_PATH}/[A-Za-z0-9_-]{43}$`));
      expect(created.err).toContain("30 minutes");
      expect(created.err).toContain(`${APP_URL}/admin/login`);
      const token = link.split("/").at(-1)!;

      // The same e-mail again: refused, exit 1, nothing else created.
      expect(await run("create-operator", "--email", "olga@platform.example", "--name", "Other")).toMatchObject({
        code: EXIT.failed,
        err: expect.stringContaining("already"),
      });
      expect((await run("list-operators")).out).toMatch(
        /^email\tname\tstatus\tcreated\nolga@platform\.example\tOlga Operadora\tenrolment pending\t/,
      );

      await withDatabase(async ({ db }) => {
        const [operator] = await db.select().from(staffUsers).where(eq(staffUsers.email, "olga@platform.example"));
        expect(operator).toMatchObject({ role: "operator", partnerId: null, canRefund: false, passwordHash: null, name: "Olga Operadora" });
        // No default password: nothing signs in before the link is used.
        for (const password of ["", "password", "admin", PASSWORD]) {
          expect(await signIn(db, { email: operator!.email, password, ip: "203.0.113.70" })).toEqual({ ok: false, reason: "invalid" });
        }
        const userId = await consumeLink(db, token, ENROLMENT_PURPOSES, { ip: "203.0.113.70" });
        expect(userId).toBe(operator!.id);
        const enrolling = await openEnrolmentSession(db, userId!, { ip: "203.0.113.70" });
        const found = (await findStaffSession(db, enrolling))!;
        expect(found.partner).toBeNull();
        const secret = await enrolmentSecret(db, found.session.tokenHash);
        const done = await completeEnrolment(
          db,
          found,
          { code: await generate({ secret, epoch: Math.floor(Date.now() / 1000) }), password: PASSWORD, confirm: PASSWORD },
          "203.0.113.70",
        );
        expect(done.ok).toBe(true);
        expect(await signIn(db, { email: operator!.email, password: PASSWORD, ip: "203.0.113.70" })).toMatchObject({
          ok: true,
          stage: "code",
        });
        // Used: the same link opens nothing again.
        expect(await consumeLink(db, token, ENROLMENT_PURPOSES)).toBeUndefined();
        const audits = await db.select().from(auditEvents).where(eq(auditEvents.staffUserId, operator!.id));
        expect(audits.map((row) => row.kind)).toEqual(expect.arrayContaining(["operator_created", "staff_link_issued", "staff_link_used"]));
      });
      expect((await run("list-operators")).out).toContain("olga@platform.example\tOlga Operadora\tactive\t");
      // Enrolled: no new enrolment link (it would sign in with a code alone), said, exit 1.
      expect(await run("enrolment-link", "--email", "olga@platform.example")).toMatchObject({
        code: EXIT.failed,
        out: "",
        err: expect.stringContaining("already set up"),
      });
    });

    it("disables an operator: their sessions end, they cannot sign in, no link opens anything", async () => {
      const sessionToken = await withDatabase(async ({ db }) => {
        const signedIn = await signIn(db, { email: "olga@platform.example", password: PASSWORD, ip: "203.0.113.71" });
        if (!signedIn.ok) throw new Error(signedIn.reason);
        return signedIn.token;
      });
      const disabled = await run("disable-operator", "--email", "OLGA@platform.example");
      expect(disabled.code).toBe(EXIT.ok);
      // This sign-in's session and those the earlier test left open (enrolment, a sign-in).
      expect(disabled.out).toBe("Disabled. 3 open sessions ended.\n");
      expect(await run("disable-operator", "--email", "olga@platform.example")).toMatchObject({
        code: EXIT.failed,
        err: expect.stringContaining("already"),
      });
      expect(await run("disable-operator", "--email", "nobody@platform.example")).toMatchObject({
        code: EXIT.failed,
        err: expect.stringContaining("No operator"),
      });
      expect(await run("enrolment-link", "--email", "olga@platform.example")).toMatchObject({
        code: EXIT.failed,
        err: expect.stringContaining("disabled"),
      });
      expect((await run("list-operators")).out).toContain("olga@platform.example\tOlga Operadora\tdisabled\t");
      await withDatabase(async ({ db }) => {
        expect(await findStaffSession(db, sessionToken)).toBeUndefined();
        expect(await signIn(db, { email: "olga@platform.example", password: PASSWORD, ip: "203.0.113.72" })).toEqual({
          ok: false,
          reason: "disabled",
        });
      });
    });

    it("enrolment-link: a new link for an account that has not set up its access", async () => {
      const created = await run("create-operator", "--email", "pablo@platform.example", "--name", "Pablo");
      const again = await run("enrolment-link", "--email", "pablo@platform.example");
      expect(again.code).toBe(EXIT.ok);
      await withDatabase(async ({ db }) => {
        // The new link voided the first.
        expect(await consumeLink(db, created.out.trim().split("/").at(-1)!, ENROLMENT_PURPOSES)).toBeUndefined();
        expect(await consumeLink(db, again.out.trim().split("/").at(-1)!, ENROLMENT_PURPOSES)).toBeDefined();
      });
      expect(await run("enrolment-link", "--email", "nobody@platform.example")).toMatchObject({ code: EXIT.failed });
    });

    it("reseal-secrets: seals everything again under the first key, says how many, and counts what no key opens", async () => {
      const k1 = parseKeyring(`k1:${Buffer.alloc(32, 1).toString("base64")}`);
      const ring = `k2:${Buffer.alloc(32, 2).toString("base64")},${SANDBOX_SECRETS_KEY_ID}:${SANDBOX_SECRETS_KEY_BASE64}`;
      const { kept, lost } = await withDatabase(async ({ db }) => {
        const partnerId = `reseal_${name.toLowerCase()}`;
        await db.insert(partners).values({ id: partnerId, name: partnerId, allowedOrigins: ["http://127.0.0.1:3999"] });
        const partner = (await partnerById(db, partnerId))!;
        // Sealed under the sandbox's key (the tests' configuration), then one under a key the ring lacks.
        const kept = (await createSession(db, partner, sessionInput({ customer: customerDraft("kept@example.com") }))).session.id;
        const lost = (await createSession(db, partner, sessionInput())).session.id;
        await db.insert(customerData).values({ sessionId: lost, data: sealCustomerDraft(lost, customerDraft("lost@example.com"), k1) });
        return { kept, lost };
      });

      expect(
        await runAdmin({ argv: ["reseal-secrets"], env: { ...target().env, SECRETS_KEYS: "k2:short" }, out: () => {}, err: () => {} }),
      ).toBe(EXIT.usage);
      let out = "";
      let err = "";
      const code = await runAdmin({
        argv: ["reseal-secrets"],
        env: { ...target().env, SECRETS_KEYS: ring },
        out: (text) => (out += text),
        err: (text) => (err += text),
      });
      expect(code).toBe(EXIT.ok);
      expect(out).toMatch(
        /^Sealed again under the key "k2": \d+ partner secrets, \d+ staff second-factor secrets, [1-9]\d* customers' data\.\n$/,
      );
      expect(err).toContain("No listed key opens 0 staff second-factor secrets and 1 customers' data");
      await withDatabase(async ({ db }) => {
        const rows = await db.select({ sessionId: customerData.sessionId, data: customerData.data }).from(customerData);
        expect(rows.find((row) => row.sessionId === kept)?.data).toMatch(/^enc:v1:k2:/);
        expect(rows.find((row) => row.sessionId === lost)?.data).toMatch(/^enc:v1:k1:/);
      });
    });
  });
}

describe("on PGlite, the server stopped", { timeout: COMMANDS_TIMEOUT_MS }, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "admin-cli-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  suite("PGlite", () => ({ env: { DATA_DIR: dataDir }, open: () => openDatabase({ dataDir: path.join(dataDir, "pglite") }) }));

  it("says to stop the server when it holds the database folder, and exits 1", async () => {
    const server = await openDatabase({ dataDir: path.join(dataDir, "pglite") });
    try {
      let err = "";
      const code = await runAdmin({ argv: ["list-operators"], env: { DATA_DIR: dataDir }, out: () => {}, err: (text) => (err += text) });
      expect(code).toBe(EXIT.failed);
      expect(err).toContain("stop the server first");
    } finally {
      await server.close();
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("on PostgreSQL, the server running", () => {
  const { url } = throwawayDatabase("admin_cli");
  // The server's own connection stays open the whole time: the command works beside it.
  let server: Database;
  beforeAll(async () => {
    server = await openDatabase({ databaseUrl: url, dataDir: "unused" });
  });
  afterAll(async () => {
    await server?.close();
  });
  suite("PostgreSQL", () => ({ env: { DATABASE_URL: url }, open: () => openDatabase({ databaseUrl: url, dataDir: "unused" }) }));
});

describe("the script as npm runs it", { timeout: COMMANDS_TIMEOUT_MS }, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "admin-script-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("prints the link alone on standard output (the app's log lines go to standard error) and exits with the command's code", async () => {
    const script = (...args: string[]) =>
      promisify(execFile)(
        process.execPath,
        ["--import", "tsx", "--import", "./scripts/server-only-stub.mjs", "scripts/admin.ts", ...args],
        {
          env: { ...process.env, DATA_DIR: dataDir, APP_URL, DATABASE_URL: "", LOG_LEVEL: "info" },
        },
      );
    const { stdout, stderr } = await script("create-operator", "--email", "script@platform.example", "--name", "Script");
    expect(stdout).toMatch(new RegExp(`^${APP_URL}${LINK_PATH}/[A-Za-z0-9_-]{43}\n$`));
    expect(stderr).toContain("operator: created");
    const refused = await script("create-operator", "--email", "script@platform.example", "--name", "Again").catch(
      (error: { code: number; stdout: string }) => error,
    );
    expect(refused).toMatchObject({ code: EXIT.failed, stdout: "" });
  });
});
