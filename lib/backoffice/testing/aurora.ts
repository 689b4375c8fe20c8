import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import type { CheckoutContext } from "@/lib/checkout/session/flow";
import { testContext } from "@/lib/checkout/testing/context";
import type { Database } from "@/lib/db";
import { auditEvents, type AuditKind } from "@/lib/db/schema";
import { DEMO_GROUP_PARTNER_ID, DEMO_PARTNER_ID } from "@/lib/demo/seed";
import type { FinancingClient } from "@/lib/financing/client";
import type { Partner } from "@/lib/partners/partners";
import { startSandboxServer } from "@/lib/sandbox/testing/servers";
import { assignAgencies } from "../operations/ownership";

/** Viajes Aurora's demo staff member. */
export const LUCIA = { id: "staff_demo_aurora", name: "Lucía Ortega", role: "admin", canRefund: true } as const;

/** A back-office test file's world: the sandbox behind, a database, Viajes Aurora and its API client. */
export interface AuroraWorld {
  sandbox: Awaited<ReturnType<typeof startSandboxServer>>;
  database: Database;
  ctx: CheckoutContext;
  partner: Partner;
  client: FinancingClient;
}

/**
 * Opens the world before the file's tests and closes it after them; its fields are there once the
 * tests run. As the demo sets it up: agency 101 is Viajes Aurora's (Grupo Demo's group key reaches it too).
 */
export function auroraWorld(): AuroraWorld {
  const world = {} as AuroraWorld;
  beforeAll(async () => {
    world.sandbox = await startSandboxServer();
    Object.assign(world, await testContext(world.sandbox.baseUrl));
    world.client = world.ctx.clientFor(world.partner);
    await assignAgencies(world.database.db, DEMO_PARTNER_ID, [101]);
  });
  afterAll(async () => {
    await world.sandbox?.close();
    await world.database?.close();
  });
  return world;
}

/** Viajes Aurora's staff member Lucía on agency 101, calling the API with the world's client. */
export function auroraStaff(world: AuroraWorld) {
  return { db: world.database.db, partner: { id: DEMO_PARTNER_ID }, user: LUCIA, actingAgencyId: 101, client: world.client };
}

/**
 * Grupo Demo's staff member acting on agency 101, which Grupo Demo's group key reaches but which is
 * Viajes Aurora's, calling the API with `client`.
 */
export function grupoStaffOnAuroras<Client>(world: AuroraWorld, client: Client) {
  return {
    db: world.database.db,
    partner: { id: DEMO_GROUP_PARTNER_ID },
    user: { id: "staff_demo_grupo", name: "Marcos Vidal", role: "admin" as const, canRefund: true },
    actingAgencyId: 101,
    client,
  };
}

/** The audit events of one kind about an operation. */
export async function auditOf(db: Database["db"], operationId: string, kind: AuditKind) {
  return db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.operationId, operationId), eq(auditEvents.kind, kind)));
}
