import type { Metadata } from "next";
import { AdminPage } from "@/app/admin/admin-page";
import { OverviewDaily, OverviewFunnel } from "@/components/admin/overview-charts";
import { Card } from "@/components/ui/card";
import { Notice } from "@/components/ui/notice";
import { groupAgencies } from "@/lib/identity/agencies";
import { formatDateTime, formatSignedSeconds } from "@/lib/backoffice/common/format";
import { integrationHealth } from "@/lib/backoffice/health/health";
import { staffOverview } from "@/lib/backoffice/operations/overview";
import { requireStaff } from "@/lib/identity/staff";
import { getAdminMessages, type AdminMessages } from "@/lib/i18n/admin-messages";
import { formatDate } from "@/lib/i18n/format";
import { getLocale } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  return { title: getAdminMessages(await getLocale()).meta.health };
}

function Row({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-wrap justify-between gap-x-4 gap-y-1 border-t border-divider py-2 first:border-t-0">
      <dt className="text-muted">{term}</dt>
      <dd className="ml-auto text-right font-semibold">{children}</dd>
    </div>
  );
}

function problemText(m: AdminMessages, problem: "unavailable" | "auth" | "forbidden" | "not_found"): string {
  return problem === "auth" ? m.common.apiAuth : problem === "forbidden" ? m.common.apiForbidden : m.common.apiUnavailable;
}

/**
 * The back-office home: the last 30 days of the partner's checkout sessions (a funnel and daily
 * volumes, drawn on the server), then the integration's health: the partner API (GET /health), its
 * clock against ours, our database and queues.
 */
export default async function HealthPage() {
  const staff = await requireStaff("/admin");
  const locale = await getLocale();
  const m = getAdminMessages(locale);
  const [health, agencies, overview] = await Promise.all([integrationHealth(staff), groupAgencies(staff), staffOverview(staff)]);
  const agencyName =
    agencies?.ok && agencies.current ? m.common.agencyOption(agencies.current.tradeName, agencies.current.id) : staff.agency.id?.toString();

  return (
    <AdminPage staff={staff} locale={locale} m={m} path="/admin" section="health">
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold">{m.health.title}</h1>
        <p className="text-muted">{m.health.intro}</p>
      </div>
      <section aria-labelledby="overview-heading" className="flex flex-col gap-4 rounded-card bg-surface p-5 shadow-sm">
        <div className="flex flex-col gap-1">
          <h2 id="overview-heading" className="text-xl font-semibold">
            {m.overview.title}
          </h2>
          {overview ? (
            <p className="text-sm text-muted">
              {m.overview.intro(formatDate(overview.firstDay, locale), formatDate(overview.lastDay, locale))}
            </p>
          ) : null}
        </div>
        {overview ? (
          <div className="grid gap-6 xl:grid-cols-2">
            <div className="flex flex-col gap-2">
              <h3 className="font-semibold">{m.overview.funnelHeading}</h3>
              <OverviewFunnel overview={overview} m={m.overview} locale={locale} />
            </div>
            <div className="flex flex-col gap-2">
              <h3 className="font-semibold">{m.overview.dailyHeading}</h3>
              <OverviewDaily overview={overview} m={m.overview} locale={locale} />
            </div>
          </div>
        ) : (
          <Notice tone="error">{m.overview.unavailable}</Notice>
        )}
      </section>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title={m.health.apiHeading} id="api-heading">
          {health.api.ok ? (
            <dl>
              <Row term={m.health.apiStatus}>{health.api.health.status}</Row>
              <Row term={m.health.version}>{health.api.health.version}</Row>
              <Row term={m.health.partnerCode}>{health.api.health.partnerCode}</Row>
              <Row term={m.health.agency}>{agencyName ?? m.health.agencyKey}</Row>
              <Row term={m.health.apiTime}>{formatDateTime(health.api.health.timestamp, locale)}</Row>
              <Row term={m.health.clockDifference}>{m.health.clockValue(formatSignedSeconds(health.api.clockDifferenceMs, locale))}</Row>
            </dl>
          ) : (
            <Notice tone="error" title={m.health.apiDown}>
              {problemText(m, health.api.problem)}
            </Notice>
          )}
          {health.api.ok ? <p className="mt-3 text-sm text-muted">{m.health.clockHint}</p> : null}
        </Card>
        <Card title={m.health.ourHeading} id="ours-heading">
          <dl>
            <Row term={m.health.database}>{health.database ? m.health.databaseOk : m.health.databaseDown}</Row>
            {health.counts ? (
              <>
                <Row term={m.health.eventsWaiting}>{health.counts.eventsWaiting}</Row>
                <Row term={m.health.sessionsOpen}>{health.counts.sessionsOpen}</Row>
                <Row term={m.health.notificationsPending}>{health.counts.notificationsPending}</Row>
              </>
            ) : null}
          </dl>
          <p className="mt-3 text-sm text-muted">{m.health.countsScope}</p>
        </Card>
      </div>
    </AdminPage>
  );
}
