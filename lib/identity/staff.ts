import "server-only";
import { cookies, headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { cache } from "react";
import { getAppContext } from "@/lib/app-context";
import { recordAudit } from "@/lib/audit/audit";
import { loggerFor } from "@/lib/logger";
import type { Db } from "@/lib/db";
import { getEnv } from "@/lib/config/env";
import type { FinancingClient } from "@/lib/financing/client";
import type { AgencyScope } from "@/lib/partners/credential";
import type { Partner } from "@/lib/partners/partners";
import { clientIpFrom } from "@/lib/security/network/client-ip";
import { servedOverHttps } from "@/lib/security/headers/served-over-https";
import {
  findStaffSession,
  sessionStage,
  STAFF_SESSION_TTL_MS,
  type OperatorSession,
  type PartnerStaffSession,
  type SessionStage,
  type StaffSession,
} from "./staff-sessions";
import { actingAgencyId } from "@/lib/partners/acting-agency";
import { can, type Permission } from "./permissions";
import { homeFor, isAdminPath, isOperatorPath, isReturnPath, landingPath, OPERATOR_HOME } from "./scope";

export { homeFor, isAdminPath, isOperatorPath, isReturnPath, landingPath, type AgencyScope };

/**
 * Who is asking, for every back-office page, route and action: the staff member from the session
 * cookie, their partner, the agency they work on, and a partner API client for exactly that
 * credential and agency. Pages without a session go to the sign-in page; actions are refused.
 * The same cookie carries an operator's session (lib/operator/session.ts reads it): the sign-in's
 * steps serve both, the back-office's pages only a partner's staff.
 */

/**
 * The session cookie's name. Over https it is `__Host-staff_session`: the browser then insists on
 * Secure, Path=/ and no Domain, so no sibling subdomain (or plain-http page) can set or overwrite
 * it. Browsers refuse a `__Host-` cookie without Secure, so on plain http (local runs, the e2e
 * tests) it is `staff_session`.
 */
export const STAFF_COOKIE = "staff_session";
export const STAFF_COOKIE_SECURE = "__Host-staff_session";

export async function staffCookieName(): Promise<string> {
  return (await servedOverHttps()) ? STAFF_COOKIE_SECURE : STAFF_COOKIE;
}

/** The client's address as the rate limits and the audit log see it (lib/security/network/client-ip.ts). */
export async function requestIp(): Promise<string> {
  return clientIpFrom(await headers(), getEnv().TRUSTED_PROXY_HOPS);
}

export async function requestUserAgent(): Promise<string | null> {
  return (await headers()).get("user-agent");
}

interface SessionBase {
  db: Db;
  token: string;
  /** full: signed in with both factors; code: the second factor is awaited; enrol: not enrolled yet. */
  stage: SessionStage;
  session: StaffSession["session"];
}

/**
 * Anyone's session, at any stage: a partner's staff member (with their partner) or an operator
 * (`partner` null). What the sign-in's own steps (second factor, enrolment, sign-out) work on.
 */
export type SignInContext =
  | (SessionBase & { user: PartnerStaffSession["user"]; partner: PartnerStaffSession["partner"] })
  | (SessionBase & { user: OperatorSession["user"]; partner: null });

/** A partner's staff member, for the back-office's pages, routes and actions. */
export interface StaffContext extends SessionBase {
  user: PartnerStaffSession["user"];
  partner: Partner;
  agency: AgencyScope;
  /** The agency the calls act for, when known: what the ownership rule checks (ownership.ts). */
  actingAgencyId: number | undefined;
  /** The partner API, with the partner's credential and the agency above. */
  client: FinancingClient;
}

/** The request's session, once per request (pages, their metadata and actions share it). */
const currentSignIn = cache(async (): Promise<SignInContext | undefined> => {
  const token = (await cookies()).get(await staffCookieName())?.value;
  if (!token) return undefined;
  const { db } = await getAppContext();
  const found = await findStaffSession(db, token);
  if (!found) return undefined;
  const base = { db, token, stage: sessionStage(found), session: found.session };
  return found.partner ? { ...base, user: found.user, partner: found.partner } : { ...base, user: found.user, partner: null };
});

/** The request's partner staff member (an operator's session is none), once per request. */
const currentStaff = cache(async (): Promise<StaffContext | undefined> => {
  const found = await currentSignIn();
  if (!found?.partner) return undefined;
  const ctx = await getAppContext();
  const { partner } = found;
  const credential = ctx.credentialFor(partner, found.session.agencyId);
  return {
    db: found.db,
    token: found.token,
    stage: found.stage,
    session: found.session,
    user: found.user,
    partner,
    agency: credential.agency,
    actingAgencyId: actingAgencyId(credential, getEnv().financing),
    client: ctx.clientFor(partner, found.session.agencyId),
  };
});

/**
 * For pages and route handlers: the staff member signed in with both factors; otherwise a redirect
 * to the sign-in, to the second-factor step, or (not enrolled yet) to enrolment. Every page that
 * moves money goes through here, so none is reached with a password alone. An operator is sent to
 * their own console: no partner's pages are theirs.
 */
export async function requireStaff(returnTo?: string): Promise<StaffContext> {
  const found = await currentSignIn();
  if (!found) redirect(loginPath(returnTo));
  if (found.stage === "code") redirect(codePath(returnTo));
  if (found.stage === "enrol") redirect(ENROL_PATH);
  if (!found.partner) redirect(OPERATOR_HOME);
  const staff = await currentStaff();
  if (!staff) redirect(loginPath(returnTo));
  return staff;
}

/**
 * For a page only some members may see (permissions.ts): the staff member as requireStaff gives
 * them; anyone else gets the back-office's 403 page (app/admin/forbidden.tsx, in its frame), and
 * the attempt is in the audit log, as a refused action's is (lib/backoffice/staff-action.ts).
 */
export async function requirePermission(permission: Permission, returnTo?: string): Promise<StaffContext> {
  const staff = await requireStaff(returnTo);
  if (!can(staff.user, permission)) {
    await auditPermissionRefused(staff.db, { partnerId: staff.partner.id, user: staff.user }, { permission, page: returnTo }, "a page");
    forbidden();
  }
  return staff;
}

/**
 * A refusal for want of a permission (a page, an action, the other console's page), in the log and
 * in the audit log: who, from where, which permission, and details of ids only (a page's path).
 */
export async function auditPermissionRefused(
  db: Db,
  who: { partnerId: string; user: { id: string; name: string } },
  details: { permission: string; page?: string },
  what: string,
): Promise<void> {
  loggerFor("identity").info({ userId: who.user.id, permission: details.permission }, `${what} was refused: no permission`);
  await recordAudit(db, {
    kind: "permission_refused",
    result: "refused",
    partnerId: who.partnerId,
    staff: { id: who.user.id, name: who.user.name },
    ip: await requestIp(),
    details: { ...details, ...(details.page ? { page: details.page.split("?")[0]! } : {}) },
  });
}

/** For the second-factor step and enrolment pages: anyone's session, whatever its stage. */
export async function requireStaffSession(returnTo?: string): Promise<SignInContext> {
  const found = await currentSignIn();
  if (!found) redirect(loginPath(returnTo));
  return found;
}

export const ENROL_PATH = "/admin/security/two-factor";

export function codePath(returnTo?: string): string {
  return isReturnPath(returnTo) ? `/admin/login/code?next=${encodeURIComponent(returnTo)}` : "/admin/login/code";
}

/** For server actions: the staff member signed in with both factors, or undefined (refuse, do nothing). */
export async function staffForAction(): Promise<StaffContext | undefined> {
  const staff = await currentStaff();
  return staff?.stage === "full" ? staff : undefined;
}

/** For the actions of the sign-in's second step, enrolment and sign-out: anyone's session, at any stage. */
export async function anyStaffSessionForAction(): Promise<SignInContext | undefined> {
  return currentSignIn();
}

/** For route handlers, which answer rather than redirect. */
export const staffForRequest = staffForAction;

export function loginPath(returnTo?: string): string {
  return isReturnPath(returnTo) ? `/admin/login?next=${encodeURIComponent(returnTo)}` : "/admin/login";
}

// Path=/ and no Domain always (what __Host- requires); Secure whenever served over https.
export async function setStaffCookie(token: string): Promise<void> {
  const secure = await servedOverHttps();
  (await cookies()).set(secure ? STAFF_COOKIE_SECURE : STAFF_COOKIE, token, {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    maxAge: STAFF_SESSION_TTL_MS / 1000,
  });
}

export async function clearStaffCookie(): Promise<void> {
  const secure = await servedOverHttps();
  (await cookies()).set(secure ? STAFF_COOKIE_SECURE : STAFF_COOKIE, "", {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    maxAge: 0,
  });
}
