import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getAppContext } from "@/lib/app-context";
import type { Db } from "@/lib/db";
import { getEnv } from "@/lib/env";
import type { FinancingClient } from "@/lib/financing/client";
import type { AgencyScope } from "@/lib/partners/credential";
import type { Partner } from "@/lib/partners/partners";
import { findStaffSession, STAFF_SESSION_TTL_MS, type StaffSession } from "./auth";
import { actingAgencyId } from "./ownership-rule";
import { isAdminPath } from "./scope";

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
  /** The agency the calls act for, when known: what the ownership rule checks (ownership.ts). */
  actingAgencyId: number | undefined;
  /** The partner API, with the partner's credential and the agency above. */
  client: FinancingClient;
}

/** The request's staff member, once per request (pages, their metadata and actions share it). */
const currentStaff = cache(async (): Promise<StaffContext | undefined> => {
  const token = (await cookies()).get(STAFF_COOKIE)?.value;
  if (!token) return undefined;
  const ctx = await getAppContext();
  const found = await findStaffSession(ctx.db, token);
  if (!found) return undefined;
  const { partner } = found;
  const credential = ctx.credentialFor(partner, found.session.agencyId);
  return {
    db: ctx.db,
    token,
    user: found.user,
    partner,
    agency: credential.agency,
    actingAgencyId: actingAgencyId(credential, getEnv().financing),
    client: ctx.clientFor(partner, found.session.agencyId),
  };
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
