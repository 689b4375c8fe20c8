import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { AppError } from "@/lib/app-error";
import { openDatabase, type Database } from "@/lib/db";
import { checkoutSessions } from "@/lib/db/schema";
import { detachOperation } from "@/lib/checkout/session/operation-link";
import { storedSession } from "@/lib/checkout/testing/context";
import { DEMO_BLUE_PARTNER_ID, DEMO_GROUP_PARTNER_ID, DEMO_PARTNER_ID, seedDemoPartner, seedDemoStaff } from "@/lib/demo/seed";
import type { FinancingClient } from "@/lib/financing/client";
import type { Operation, Page } from "@/lib/financing/types";
import { allOperations, listOperationsPage, operationDetail } from "./operations";
import { actingAgencyId, agencyOfSandboxKey, ownsByAgency } from "@/lib/partners/acting-agency";
import { assignAgencies, ownedOperationIds, ownsOperation, requireOwnedOperation, type OwnershipSubject } from "./ownership";
import type { StaffContext } from "@/lib/identity/staff";

const APP_URL = "http://127.0.0.1:3999";
let database: Database;

const AURORA_OP = "op_aurora_from_checkout";
const BLUE_OP = "op_blue_from_checkout";
const OTHER_OP = "op_nobodys_session";
/** Rutas Azules' first operation of a session whose customer corrected their details: cancelled, replaced. */
const BLUE_REPLACED_OP = "op_blue_replaced_by_correction";

async function addSession(partnerId: string, operationId: string) {
  await database.db
    .insert(checkoutSessions)
    .values(storedSession({ id: `cs_${operationId}`, reference: `BK-${operationId}`, partnerId, operationId, returnUrl: `${APP_URL}/` }));
}

beforeAll(async () => {
  database = await openDatabase({ dataDir: "memory://" });
  await seedDemoPartner(database.db, { secret: "test_partner_secret_0123456789", appUrl: APP_URL, secondPartner: true });
  await seedDemoStaff(database.db, { appUrl: APP_URL });
  await addSession(DEMO_PARTNER_ID, AURORA_OP);
  await addSession(DEMO_BLUE_PARTNER_ID, BLUE_OP);
  await addSession(DEMO_BLUE_PARTNER_ID, BLUE_REPLACED_OP);
  expect(await detachOperation(database.db, `cs_${BLUE_REPLACED_OP}`, BLUE_REPLACED_OP)).toBe(true);
});

afterAll(async () => {
  await database?.close();
});

const subject = (partnerId: string, agency: number | undefined): OwnershipSubject => ({
  db: database.db,
  partner: { id: partnerId },
  actingAgencyId: agency,
});

describe("which agency a partner's calls act for", () => {
  const deployment = { apiKey: "fk_test_sandbox_agency_101" };

  it("the agency header's, when there is one", () => {
    expect(actingAgencyId({ apiKey: "fk_test_sandbox_group_1", agency: { id: 102 } }, deployment)).toBe(102);
  });

  it("with an agency key, the key's own: FINANCING_KEY_AGENCY_ID for the deployment's key, else a sandbox key's name", () => {
    expect(actingAgencyId({ apiKey: "fk_test_sandbox_agency_101", agency: { id: undefined } }, deployment)).toBe(101);
    expect(actingAgencyId({ apiKey: "fk_live_abc", agency: { id: undefined } }, { apiKey: "fk_live_abc", keyAgencyId: 7 })).toBe(7);
    expect(actingAgencyId({ apiKey: "fk_test_sandbox_agency_201", agency: { id: undefined } }, deployment)).toBe(201);
  });

  it("unknown for a production agency key of the partner's own, and for a name that only looks like a sandbox key", () => {
    expect(actingAgencyId({ apiKey: "fk_live_partner_own", agency: { id: undefined } }, { apiKey: "fk_live_x", keyAgencyId: 7 })).toBe(
      undefined,
    );
    expect(agencyOfSandboxKey("fk_test_sandbox_agency_101x")).toBe(undefined);
    expect(agencyOfSandboxKey("xfk_test_sandbox_agency_101")).toBe(undefined);
    expect(agencyOfSandboxKey("fk_test_sandbox_group_1")).toBe(undefined);
  });

  it("an unknown agency makes no operation the partner's by agency, whatever is assigned", () => {
    expect(ownsByAgency(undefined, [101])).toBe(false);
    expect(ownsByAgency(101, [])).toBe(false);
    expect(ownsByAgency(101, [102, 103])).toBe(false);
    expect(ownsByAgency(101, [101])).toBe(true);
  });
});

describe("whose operation it is", () => {
  it("Grupo Demo's key reaches agency 101, but 101 is Viajes Aurora's: none of its operations are Grupo Demo's", async () => {
    const grupoOn101 = subject(DEMO_GROUP_PARTNER_ID, 101);
    expect(await ownsOperation(grupoOn101, AURORA_OP)).toBe(false);
    expect(await ownsOperation(grupoOn101, OTHER_OP)).toBe(false);
    await expect(requireOwnedOperation(grupoOn101, AURORA_OP)).rejects.toSatisfy(
      (error: unknown) => error instanceof AppError && error.code === "not_found",
    );
  });

  it("on its own agency (102), Grupo Demo's; Aurora's checkout operation is still not, even through 102", async () => {
    expect(await ownsOperation(subject(DEMO_GROUP_PARTNER_ID, 102), "op_in_102")).toBe(true);
    // Opened by Aurora's checkout, which does not share 102: Aurora's, whatever agency Grupo Demo owns.
    expect(await ownsOperation(subject(DEMO_GROUP_PARTNER_ID, 102), AURORA_OP)).toBe(false);
    expect([...(await ownedOperationIds(subject(DEMO_GROUP_PARTNER_ID, 102), [AURORA_OP, "op_in_102", BLUE_OP]))]).toEqual(["op_in_102"]);
    // The API (agency header 102) is what then says an operation of 101 is not found there.
    expect(await ownsOperation(subject(DEMO_PARTNER_ID, 102), "op_in_102")).toBe(false);
  });

  it("Viajes Aurora owns its agency's operations and its own checkout's", async () => {
    expect(await ownsOperation(subject(DEMO_PARTNER_ID, 101), OTHER_OP)).toBe(true);
    expect(await ownsOperation(subject(DEMO_PARTNER_ID, undefined), AURORA_OP)).toBe(true);
    expect(await ownsOperation(subject(DEMO_PARTNER_ID, undefined), OTHER_OP)).toBe(false);
  });

  it("a partner on the shared deployment key with no agency assigned: only its own checkout sessions' operations", async () => {
    const blue = subject(DEMO_BLUE_PARTNER_ID, 101);
    expect(await ownsOperation(blue, BLUE_OP)).toBe(true);
    expect(await ownsOperation(blue, AURORA_OP)).toBe(false);
    expect(await ownsOperation(blue, OTHER_OP)).toBe(false);
    expect([...(await ownedOperationIds(blue, [AURORA_OP, BLUE_OP, OTHER_OP]))]).toEqual([BLUE_OP]);
  });

  it("sharing an agency is explicit: a row for each partner", async () => {
    const other = await openDatabase({ dataDir: "memory://" });
    const { db } = other;
    await seedDemoPartner(db, { secret: "test_partner_secret_0123456789", appUrl: APP_URL, secondPartner: true });
    const blue = { db, partner: { id: DEMO_BLUE_PARTNER_ID }, actingAgencyId: 101 };
    expect(await ownsOperation(blue, OTHER_OP)).toBe(false);
    await assignAgencies(db, DEMO_BLUE_PARTNER_ID, [101]);
    expect(await ownsOperation(blue, OTHER_OP)).toBe(true);
    await other.close();
  });
});

// ---------------------------------------------------------------------------------------------
// The back-office's reads, with a partner API that records every call

function op(id: string): Operation {
  return {
    id,
    operationNumber: 1,
    externalId: `BK-${id}`,
    status: "GENERATED",
    totalPrice: { cents: 10000, currency: "EUR" },
    totalReserve: { cents: 0, currency: "EUR" },
    financingUrl: null,
    updatedAt: undefined,
  };
}

function staffOf(partnerId: string, agency: number | undefined, content: Operation[]) {
  const calls: string[] = [];
  const page: Page<Operation> = { content, number: 0, size: 20, totalElements: 99, totalPages: 5, first: true, last: true };
  const client = new Proxy(
    {},
    {
      get(_target, name: string) {
        return async () => {
          calls.push(name);
          if (name === "listOperations") return page;
          throw new Error(`unexpected call ${name}`);
        };
      },
    },
  ) as FinancingClient;
  return { staff: { ...subject(partnerId, agency), client } as unknown as StaffContext, calls };
}

describe("the back-office's reads keep to the partner's operations", () => {
  it("an operation page of someone else's operation is 'not found', and the partner API is not asked", async () => {
    const { staff, calls } = staffOf(DEMO_GROUP_PARTNER_ID, 101, []);
    expect(await operationDetail(staff, AURORA_OP, undefined)).toEqual({ kind: "problem", problem: "not_found" });
    // Acting for an agency of its own (102), Grupo Demo still cannot send Aurora's operation upstream.
    const { staff: on102, calls: calls102 } = staffOf(DEMO_GROUP_PARTNER_ID, 102, []);
    expect(await operationDetail(on102, AURORA_OP, undefined)).toEqual({ kind: "problem", problem: "not_found" });
    expect([...calls, ...calls102]).toEqual([]);
  });

  it("an id that cannot be an operation's is 'not found' without asking, even on the partner's own agency", async () => {
    const { staff, calls } = staffOf(DEMO_PARTNER_ID, 101, []);
    for (const id of ["x".repeat(3000), "..%2F..%2Fagencies", "op_1/../../agencies", "op 1"]) {
      expect(await operationDetail(staff, id, undefined), id.slice(0, 20)).toEqual({ kind: "problem", problem: "not_found" });
    }
    expect(calls).toEqual([]);
  });

  it("the list and the CSV leave out what the credential reaches but the partner does not own, and hide how many", async () => {
    const { staff } = staffOf(DEMO_GROUP_PARTNER_ID, 101, [op(AURORA_OP), op(OTHER_OP)]);
    const listed = await listOperationsPage(staff, { page: 1, size: 20 });
    expect(listed.content).toEqual([]);
    expect(listed.totalElements).toBe(0);
    expect(await allOperations(staff, { page: 1, size: 20 })).toEqual([]);

    const { staff: blue } = staffOf(DEMO_BLUE_PARTNER_ID, 101, [op(AURORA_OP), op(BLUE_OP), op(OTHER_OP)]);
    expect((await allOperations(blue, { page: 1, size: 20 })).map((row) => row.operation.id)).toEqual([BLUE_OP]);
  });

  it("an operation replaced after the customer's correction stays its partner's: not another's through the agency, and still joined to its session", async () => {
    // The session no longer holds it (it waits for, or has, a new one): nothing of checkout_sessions names it.
    const [session] = await database.db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.id, `cs_${BLUE_REPLACED_OP}`));
    expect(session!.operationId).toBeNull();

    // Viajes Aurora owns agency 101, where the deployment's key put Rutas Azules' operation.
    expect(await ownsOperation(subject(DEMO_PARTNER_ID, 101), BLUE_REPLACED_OP)).toBe(false);
    const { staff: aurora, calls } = staffOf(DEMO_PARTNER_ID, 101, [op(BLUE_REPLACED_OP), op(OTHER_OP)]);
    expect(await operationDetail(aurora, BLUE_REPLACED_OP, undefined)).toEqual({ kind: "problem", problem: "not_found" });
    expect((await listOperationsPage(aurora, { page: 1, size: 20 })).content.map((row) => row.operation.id)).toEqual([OTHER_OP]);
    expect((await allOperations(aurora, { page: 1, size: 20 })).map((row) => row.operation.id)).toEqual([OTHER_OP]);
    expect(calls).toEqual(["listOperations", "listOperations"]);

    // Rutas Azules' staff still see it, with the booking it was opened for.
    const { staff: blue } = staffOf(DEMO_BLUE_PARTNER_ID, 101, [op(BLUE_REPLACED_OP), op(OTHER_OP)]);
    const listed = await listOperationsPage(blue, { page: 1, size: 20 });
    expect(listed.content.map((row) => [row.operation.id, row.session?.bookingReference])).toEqual([
      [BLUE_REPLACED_OP, `BK-${BLUE_REPLACED_OP}`],
    ]);
  });

  it("the partner's own agency: everything listed, as the API listed it", async () => {
    const { staff } = staffOf(DEMO_PARTNER_ID, 101, [op(AURORA_OP), op(OTHER_OP)]);
    const listed = await listOperationsPage(staff, { page: 1, size: 20 });
    expect(listed.content.map((row) => row.operation.id)).toEqual([AURORA_OP, OTHER_OP]);
    expect(listed.totalElements).toBe(99);
  });
});
