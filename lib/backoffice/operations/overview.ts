import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import type { OperationStatus } from "@/lib/financing/contract";
import { logError, loggerFor } from "@/lib/logger";
import { ADMIN_TIME_ZONE } from "../common/format";
import type { FunnelCounts } from "./overview-steps";

export { FUNNEL_STEPS, type FunnelCounts, type FunnelStep } from "./overview-steps";

/**
 * The back-office home's overview: the last 30 days of one partner's checkout sessions as a funnel
 * and as daily volumes, from our own database (no partner API call). The steps, as
 * docs/contributors/backoffice.md ("The overview") states them:
 *
 * - opened: the session was created (`checkout_sessions.created_at`) in the window — the cohort;
 * - details given: the customer submitted their details (`customer_data.submitted`), or the session
 *   has or had an operation (one is only created from submitted details);
 * - plan chosen: the customer chose an offer (`chosen_offer_id`, `financing_status`), or an
 *   operation of the session ever reported a status that only follows a choice;
 * - signed: an operation of the session ever reported a status that only follows the customer's
 *   signature at the provider (PENDING_RESPONSE, "customer signed at the provider", and after);
 * - confirmed / refused / expired: where the session stands now (as `sessionState` says it).
 *
 * Every step counts the sessions that reached it or a later one, so the funnel never widens; the
 * outcomes are shares of the sessions opened (an expired session may have stopped at any step).
 * Only sessions whose `partner_id` is the partner's count: the partner's own checkout sessions
 * are its own whichever agency the calls act for (ownership.ts), and operations of assigned
 * agencies that no session of ours opened have no funnel here to count.
 *
 * Days are calendar days in Europe/Madrid (ADMIN_TIME_ZONE, the agencies' market, the zone every
 * back-office time is shown in): the window is today and the 29 days before, a session belongs to
 * the day it was opened on, and a day without sessions is there with zeros.
 */

export const OVERVIEW_DAYS = 30;

/** Statuses an operation reports only once the customer chose a plan (POST /financing went through). */
const CHOSEN: readonly OperationStatus[] = [
  "CLIENT_REQUESTED",
  "PENDING_RESPONSE",
  "FAVORABLE",
  "CONFIRMED",
  "FINISHED",
  "REFUSED",
  "REFUNDED",
];
/** Statuses an operation reports only once the customer signed at the provider. */
const SIGNED: readonly OperationStatus[] = ["PENDING_RESPONSE", "FAVORABLE", "CONFIRMED", "FINISHED", "REFUNDED"];
/** Financing confirmed (a refund undoes it later, but the sale was confirmed). */
const CONFIRMED: readonly OperationStatus[] = ["CONFIRMED", "FINISHED", "REFUNDED"];

export interface OverviewDay {
  /** The calendar day in Europe/Madrid, `YYYY-MM-DD`. */
  day: string;
  /** Sessions opened that day. */
  opened: number;
  /** Of those, the ones confirmed by now. */
  confirmed: number;
}

export interface Overview {
  timeZone: string;
  /** The window's first and last day (`YYYY-MM-DD`, Europe/Madrid), both included. */
  firstDay: string;
  lastDay: string;
  /** Thirty days, oldest first, zeros included. */
  days: OverviewDay[];
  /** The whole window's funnel: the days' sums. */
  funnel: FunnelCounts;
}

interface DayRow {
  day: string;
  opened: number | string;
  details: number | string;
  chosen: number | string;
  signed: number | string;
  confirmed: number | string;
  refused: number | string;
  expired: number | string;
}

function statusList(statuses: readonly OperationStatus[]) {
  return sql.join(
    statuses.map((status) => sql`${status}`),
    sql`, `,
  );
}

/**
 * One statement: the window's days (generate_series, so empty days are rows), left-joined with the
 * partner's sessions of the window, each with what it reached (one GROUP BY over its history), and
 * counted per day with FILTER. Runs the same on PGlite and PostgreSQL.
 */
export async function partnerOverview(db: Db, partnerId: string, now = new Date()): Promise<Overview> {
  const tz = ADMIN_TIME_ZONE;
  const at = sql`${now.toISOString()}::timestamptz`;
  const result = await db.execute(sql`
    with bounds as (
      select date_trunc('day', ${at} at time zone ${tz}) - make_interval(days => ${OVERVIEW_DAYS - 1}) as first_local,
             date_trunc('day', ${at} at time zone ${tz}) + interval '1 day' as end_local
    ),
    window_sessions as (
      select s.* from checkout_sessions s, bounds b
      where s.partner_id = ${partnerId}
        and s.created_at >= (b.first_local at time zone ${tz})
        and s.created_at < (b.end_local at time zone ${tz})
    ),
    reached as (
      select h.session_id,
             bool_or(h.status in (${statusList(CHOSEN)})) as chosen,
             bool_or(h.status in (${statusList(SIGNED)})) as signed
      from session_status_history h
      join window_sessions s on s.id = h.session_id
      group by h.session_id
    ),
    staged as (
      select (s.created_at at time zone ${tz})::date as day,
             coalesce(s.operation_status in (${statusList(CONFIRMED)}), false) as confirmed,
             coalesce(r.signed, false) or coalesce(s.operation_status in (${statusList(SIGNED)}), false) as signed,
             coalesce(r.chosen, false) or coalesce(s.operation_status in (${statusList(CHOSEN)}), false)
               or s.chosen_offer_id is not null or s.financing_status is not null as chosen,
             coalesce(c.submitted, false) or s.operation_id is not null or s.operation_attempt > 0 or r.session_id is not null as details,
             coalesce(s.operation_status = 'REFUSED', false) as refused,
             coalesce(s.operation_status = 'EXPIRED', s.cancelled_at is null and s.expires_at <= ${at}) as expired
      from window_sessions s
      left join customer_data c on c.session_id = s.id
      left join reached r on r.session_id = s.id
    ),
    days as (
      select generate_series(b.first_local, b.end_local - interval '1 day', interval '1 day')::date as day from bounds b
    )
    select to_char(d.day, 'YYYY-MM-DD') as day,
           count(st.day) as opened,
           count(*) filter (where st.details or st.chosen or st.signed or st.confirmed) as details,
           count(*) filter (where st.chosen or st.signed or st.confirmed) as chosen,
           count(*) filter (where st.signed or st.confirmed) as signed,
           count(*) filter (where st.confirmed) as confirmed,
           count(*) filter (where st.refused) as refused,
           count(*) filter (where st.expired) as expired
    from days d
    left join staged st on st.day = d.day
    group by d.day
    order by d.day
  `);
  const rows = rowsOf<DayRow>(result);
  const funnel: FunnelCounts = { opened: 0, detailsGiven: 0, planChosen: 0, signed: 0, confirmed: 0, refused: 0, expired: 0 };
  const days = rows.map((row) => {
    funnel.opened += Number(row.opened);
    funnel.detailsGiven += Number(row.details);
    funnel.planChosen += Number(row.chosen);
    funnel.signed += Number(row.signed);
    funnel.confirmed += Number(row.confirmed);
    funnel.refused += Number(row.refused);
    funnel.expired += Number(row.expired);
    return { day: row.day, opened: Number(row.opened), confirmed: Number(row.confirmed) };
  });
  return { timeZone: tz, firstDay: days[0]?.day ?? "", lastDay: days.at(-1)?.day ?? "", days, funnel };
}

/** PGlite answers `{ rows }`, postgres.js an array of rows. */
function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** The staff member's partner's overview; undefined (logged) when the database does not answer. */
export async function staffOverview(staff: { db: Db; partner: { id: string } }, now = new Date()): Promise<Overview | undefined> {
  try {
    return await partnerOverview(staff.db, staff.partner.id, now);
  } catch (error) {
    logError(loggerFor("backoffice"), "backoffice: reading the overview failed", error);
    return undefined;
  }
}
