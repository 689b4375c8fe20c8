import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { openDatabase, type Database } from "@/lib/db";
import { auditEvents } from "@/lib/db/schema";
import type * as StaffModule from "@/lib/identity/staff";

/**
 * The refund's server action as a hand-made post reaches it: without the refund permission it is
 * refused before anything runs (audited, back to the home page), whatever the form says; with it,
 * the refund's steps run. The staff member is stood in for the session cookie.
 */
const request = vi.hoisted(() => ({
  staff: undefined as unknown,
  refundStep: vi.fn(async () => ({ step: "edit" as const })),
}));

// The rest of the module is the real one: the refusal's log line and audit row are what is tested.
vi.mock("@/lib/identity/staff", async (importOriginal) => ({
  ...(await importOriginal<typeof StaffModule>()),
  staffForAction: () => Promise.resolve(request.staff),
}));
vi.mock("next/headers", () => ({ headers: () => Promise.resolve(new Headers()) }));
vi.mock("@/lib/backoffice/refunds/refund", () => ({ refundStep: request.refundStep }));

const { refundAction } = await import("./actions");
const { inviteAction } = await import("@/app/admin/staff/actions");

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ dataDir: "memory://" });
});
afterAll(async () => {
  await database.close();
});
beforeEach(() => {
  request.refundStep.mockClear();
});

function staff(role: "admin" | "agent", canRefund: boolean) {
  return {
    db: database.db,
    partner: { id: "demo", name: "Viajes Aurora (demo)" },
    user: { id: `staff_${role}_${canRefund}`, name: "Someone", role, canRefund },
  };
}

function refundForm(): FormData {
  const form = new FormData();
  form.set("operationId", "op_123");
  form.set("intent", "confirm");
  form.set("expectedTotal", "1000");
  return form;
}

async function redirectOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e as { digest?: string },
  );
  // Next's redirect is an error whose digest carries the target: NEXT_REDIRECT;replace;/admin;307;
  return error?.digest?.split(";")[2] ?? "no redirect";
}

describe("the refund action", () => {
  it("refuses an agent without the permission before anything runs, and audits it", async () => {
    request.staff = staff("agent", false);
    expect(await redirectOf(refundAction({ step: "edit", submission: 0 }, refundForm()))).toBe("/admin");
    expect(request.refundStep).not.toHaveBeenCalled();
    const refused = await database.db.select().from(auditEvents).where(eq(auditEvents.kind, "permission_refused"));
    expect(refused.at(-1)).toMatchObject({
      staffUserId: "staff_agent_false",
      partnerId: "demo",
      result: "refused",
      details: { permission: "refund" },
    });
  });

  it("refuses an administrator without the permission too: refunding is granted, not a role", async () => {
    request.staff = staff("admin", false);
    expect(await redirectOf(refundAction({ step: "edit", submission: 0 }, refundForm()))).toBe("/admin");
    expect(request.refundStep).not.toHaveBeenCalled();
  });

  it("runs for a member who was granted it", async () => {
    request.staff = staff("agent", true);
    expect(await refundAction({ step: "edit", submission: 0 }, refundForm())).toMatchObject({ step: "edit", submission: 1 });
    expect(request.refundStep).toHaveBeenCalledOnce();
  });

  it("with no session, goes to the sign-in", async () => {
    request.staff = undefined;
    expect(await redirectOf(refundAction({ step: "edit", submission: 0 }, refundForm()))).toBe("/admin/login");
  });
});

describe("the invitation action", () => {
  it("refuses an agent: only administrators manage staff", async () => {
    request.staff = staff("agent", true);
    const form = new FormData();
    form.set("email", "someone@example.com");
    form.set("name", "Someone");
    form.set("role", "admin");
    expect(await redirectOf(inviteAction({ submission: 0 }, form))).toBe("/admin");
  });
});
