import "server-only";
import { createHash } from "node:crypto";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getCheckoutContext } from "@/lib/checkout/flow";
import type { Partner } from "@/lib/checkout/partners";
import type { Db } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { createFinancingClient, type FinancingClient } from "@/lib/financing";
import { createDatabaseStatusCache } from "@/lib/financing/db-status-cache";
import { findStaffSession, STAFF_SESSION_TTL_MS, type StaffSession } from "./auth";
import { agencyScope, isAdminPath, type AgencyScope } from "./scope";

export { isAdminPath, type AgencyScope };

/**
 * Who is asking, for every back-office page, route and action: the staff member from the session
 * cookie, their partner, the agency they work on, and a partner API client for exactly that
 * credential and agency. Pages without a session go to the sign-in page; actions are refused.
 */

export const STAFF_COOKIE = "staff_session";

export interface StaffContext {
  db: Db;
  token: string;
  user: StaffSession["user"];
  partner: Partner;
  agency: AgencyScope;
  /** The partner API, with the partner's credential and the agency above. */
  client: FinancingClient;
}

const clients = new Map<string, FinancingClient>();

/**
 * One client per (partner, key, agency), kept for the process: the checkout's clientFor keeps one
 * per partner, but a group key's staff move between agencies.
 */
export function staffFinancingClient(db: Db, partner: Partner, agencyId: number | undefined): FinancingClient {
  const { financing } = getEnv();
  const apiKey = partner.financingApiKey ?? financing.apiKey;
  const keyFingerprint = createHash("sha256").update(apiKey).digest("hex").slice(0, 16);
  const cacheKey = `${partner.id}|${keyFingerprint}|${agencyId ?? "-"}`;
  let client = clients.get(cacheKey);
  if (!client) {
    client = createFinancingClient({ ...financing, apiKey, agencyId, statusCache: createDatabaseStatusCache(db) });
    clients.set(cacheKey, client);
  }
  return client;
}

/** The request's staff member, once per request (pages, their metadata and actions share it). */
const currentStaff = cache(async (): Promise<StaffContext | undefined> => {
  const token = (await cookies()).get(STAFF_COOKIE)?.value;
  if (!token) return undefined;
  const { db } = await getCheckoutContext();
  const found = await findStaffSession(db, token);
  if (!found) return undefined;
  const agency = agencyScope(found.partner, found.session.agencyId, getEnv().financing.agencyId);
  return { db, token, user: found.user, partner: found.partner, agency, client: staffFinancingClient(db, found.partner, agency.id) };
});

/** For pages and route handlers: the staff member, or a redirect to the sign-in page. */
export async function requireStaff(returnTo?: string): Promise<StaffContext> {
  const staff = await currentStaff();
  if (!staff) redirect(loginPath(returnTo));
  return staff;
}

/** For server actions: the staff member, or undefined (the action must refuse and do nothing). */
export async function staffForAction(): Promise<StaffContext | undefined> {
  return currentStaff();
}

/** For route handlers, which answer rather than redirect. */
export const staffForRequest = staffForAction;

export function loginPath(returnTo?: string): string {
  return isAdminPath(returnTo) ? `/admin/login?next=${encodeURIComponent(returnTo)}` : "/admin/login";
}

export async function setStaffCookie(token: string): Promise<void> {
  (await cookies()).set(STAFF_COOKIE, token, {
    httpOnly: true,
    sameSite: "lax",
    secure: getEnv().APP_URL.startsWith("https:"),
    path: "/",
    maxAge: STAFF_SESSION_TTL_MS / 1000,
  });
}

export async function clearStaffCookie(): Promise<void> {
  (await cookies()).set(STAFF_COOKIE, "", {
    httpOnly: true,
    sameSite: "lax",
    secure: getEnv().APP_URL.startsWith("https:"),
    path: "/",
    maxAge: 0,
  });
}
