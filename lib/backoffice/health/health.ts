import "server-only";
import { and, count, eq, inArray, isNull } from "drizzle-orm";
import { checkDatabase, getDatabase } from "@/lib/db";
import { checkoutSessions, partnerNotifications, webhookEvents } from "@/lib/db/schema";
import { OPEN_STATUSES } from "@/lib/financing/contract";
import type { Health } from "@/lib/financing/types";
import { apiProblem, type ApiProblem } from "@/lib/financing/api-problem";
import type { StaffContext } from "@/lib/identity/staff";
import { logError, loggerFor } from "@/lib/logger";

export interface IntegrationHealth {
  api: { ok: true; health: Health; clockDifferenceMs: number } | { ok: false; problem: ApiProblem };
  database: boolean;
  /** Undefined when the database does not answer. Counted for this partner's sessions only. */
  counts: { eventsWaiting: number; sessionsOpen: number; notificationsPending: number } | undefined;
}

/**
 * The clock difference is the API's timestamp minus our clock at the middle of the call: the API
 * wrote its time somewhere between our send and our receipt, and the middle halves the error.
 */
export function clockDifferenceMs(apiTimestamp: string, sentAt: number, receivedAt: number): number {
  return Date.parse(apiTimestamp) - (sentAt + receivedAt) / 2;
}

export async function integrationHealth(staff: StaffContext): Promise<IntegrationHealth> {
  const [api, database] = await Promise.all([
    apiHealth(staff),
    getDatabase().then(checkDatabase, (error: unknown) => ({ ok: false as const, error })),
  ]);
  if (!database.ok) logError(loggerFor("backoffice"), "backoffice: database check failed", database.error);
  return { api, database: database.ok, counts: database.ok ? await counts(staff) : undefined };
}

async function apiHealth(staff: StaffContext): Promise<IntegrationHealth["api"]> {
  try {
    const sentAt = Date.now();
    const health = await staff.client.health();
    const receivedAt = Date.now();
    return { ok: true, health, clockDifferenceMs: clockDifferenceMs(health.timestamp, sentAt, receivedAt) };
  } catch (error) {
    return { ok: false, problem: apiProblem(error, "the health check") };
  }
}

async function counts(staff: StaffContext): Promise<IntegrationHealth["counts"]> {
  const { db, partner } = staff;
  const [[events], [sessions], [notifications]] = await Promise.all([
    db
      .select({ n: count() })
      .from(webhookEvents)
      .innerJoin(checkoutSessions, eq(checkoutSessions.operationId, webhookEvents.operationId))
      .where(and(eq(checkoutSessions.partnerId, partner.id), isNull(webhookEvents.processedAt))),
    db
      .select({ n: count() })
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.partnerId, partner.id), inArray(checkoutSessions.operationStatus, [...OPEN_STATUSES]))),
    db
      .select({ n: count() })
      .from(partnerNotifications)
      .where(and(eq(partnerNotifications.partnerId, partner.id), isNull(partnerNotifications.deliveredAt))),
  ]);
  return { eventsWaiting: events?.n ?? 0, sessionsOpen: sessions?.n ?? 0, notificationsPending: notifications?.n ?? 0 };
}
