import { ConfirmDisclosure } from "@/components/ui/confirm-disclosure";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { credentialText } from "@/components/operator/credential-text";
import { OperatorPage } from "@/app/operator/operator-page";
import { getAdminMessages } from "@/lib/i18n/admin-messages";
import {
  CredentialForm,
  InviteAdminForm,
  PartnerNotificationForm,
  PartnerRetentionForm,
  PartnerSettingsForm,
} from "@/components/operator/partner-forms";
import { ApiSecretsPanel } from "@/components/partners/api-secrets-panel";
import { apiSecretRows } from "@/components/partners/api-secrets-rows";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { Cell, Row, columnsOf, ScrollTable } from "@/components/ui/table";
import { TextLink } from "@/components/ui/text-link";
import { getAppContext } from "@/lib/app-context";
import { partnerApiSecrets } from "@/lib/backoffice/api-secrets/api-secrets";
import { formatDateTime } from "@/lib/backoffice/common/format";
import { getEnv } from "@/lib/config/env";
import { apiSecretsPanelText, getPartnerConsoleMessages } from "@/lib/i18n/partner-console-messages";
import { fill } from "@/lib/text/template";
import { getLocale } from "@/lib/i18n/server";
import { reachableAgencies } from "@/lib/operator/partners/credential";
import { partnerForConsole } from "@/lib/operator/partners/partners-admin";
import { requireOperator } from "@/lib/operator/session";
import {
  agenciesAction,
  apiSecretAction,
  credentialAction,
  inviteAdminAction,
  notificationAction,
  retentionAction,
  settingsAction,
  stateAction,
} from "./actions";
import type { IdPageProps } from "@/lib/http/page-props";

const NOTICES = ["created", "disabled", "enabled", "agencies", "agenciesInvalid"] as const;
type PageNotice = (typeof NOTICES)[number];

function isNotice(value: unknown): value is PageNotice {
  return typeof value === "string" && (NOTICES as readonly string[]).includes(value);
}

export async function generateMetadata({ params }: IdPageProps): Promise<Metadata> {
  await requireOperator();
  const found = await partnerForConsole((await getAppContext()).db, (await params).id);
  return { title: found?.partner.name ?? getPartnerConsoleMessages(await getLocale()).meta.partners };
}

function Section({ id, title, intro, children }: { id: string; title: string; intro?: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="flex flex-col gap-3 rounded-card bg-surface p-4 shadow-sm">
      <h2 id={`${id}-title`} className="text-xl font-semibold">
        {title}
      </h2>
      {intro ? <p>{intro}</p> : null}
      {children}
    </section>
  );
}

/**
 * One partner, everything an operator sets for it: its settings, notification URL, financing API
 * key (verified live, never shown again), the agencies its staff see, its API secrets, its first
 * administrator, and whether it is active.
 */
export default async function PartnerPage({ params, searchParams }: IdPageProps) {
  const operator = await requireOperator();
  const { id } = await params;
  const query = await searchParams;
  const locale = await getLocale();
  const m = getPartnerConsoleMessages(locale);
  const admin = getAdminMessages(locale);
  const { db } = await getAppContext();
  const found = await partnerForConsole(db, id);
  if (!found) notFound();
  const { partner, credential, agencies, staff } = found;
  const env = getEnv();
  const path = `/operator/partners/${encodeURIComponent(partner.id)}`;
  const reachable = await reachableAgencies(partner, { financing: env.financing, keyring: env.SECRETS_KEYS });
  const secrets = apiSecretRows(await partnerApiSecrets(db, partner.id), locale);
  const notice = isNotice(query.notice) ? query.notice : undefined;
  const keyPrefix = env.financing.environment === "production" ? "fk_live_" : "fk_test_";
  // What every form of the page shares: the partner it posts for, the page it answers on.
  const form = { partnerId: partner.id, errorPrefix: m.common.errorPrefix, permalink: path };

  return (
    <OperatorPage operator={operator} locale={locale} path={path} section="partners">
      <TextLink href="/operator/partners">{m.detail.back}</TextLink>
      <div className="flex flex-col gap-1">
        <h1 className="text-3xl font-bold">{partner.name}</h1>
        <p className="text-muted">
          {fill(m.detail.idLabel, { id: partner.id })} · {partner.disabledAt ? m.states.disabled : m.states.active}
        </p>
      </div>
      {notice ? (
        <Notice tone={notice === "agenciesInvalid" ? "error" : "success"} live>
          {m.detail.notices[notice]}
        </Notice>
      ) : null}
      {partner.disabledAt ? (
        <Notice tone="warning">{fill(m.detail.disabledBanner, { since: formatDateTime(partner.disabledAt, locale) })}</Notice>
      ) : null}

      <Section id="settings" title={m.settings.title}>
        <PartnerSettingsForm
          action={settingsAction}
          current={{
            name: partner.name,
            allowedOrigins: partner.allowedOrigins.join("\n"),
            defaultReturnUrl: partner.defaultReturnUrl ?? "",
          }}
          text={m.settings}
          {...form}
        />
      </Section>

      <Section id="credential" title={m.credential.title} intro={m.credential.intro}>
        <p className="font-semibold">{fill(m.credential.current, { credential: credentialText(credential, m) })}</p>
        <CredentialForm action={credentialAction} keyPrefix={keyPrefix} text={m.credential} {...form} />
      </Section>

      <Section id="agencies" title={m.agencies.title} intro={m.agencies.intro}>
        <p className="font-semibold">
          {fill(m.agencies.current, { agencies: agencies.length > 0 ? agencies.join(", ") : m.agencies.noneAssigned })}
        </p>
        <form action={agenciesAction} className="flex flex-col gap-3">
          <input type="hidden" name="partnerId" value={partner.id} />
          <Field id="partner-agencies" label={m.agencies.field}>
            {(control) => <input {...control} name="agencies" inputMode="numeric" autoComplete="off" defaultValue={agencies.join(", ")} />}
          </Field>
          <div>
            <Button variant="secondary" stretch={false}>
              {m.agencies.submit}
            </Button>
          </div>
        </form>
        <h3 className="font-semibold">{m.agencies.reachable}</h3>
        {!reachable.ok ? (
          <p>{m.agencies.reachableUnavailable}</p>
        ) : reachable.agencies.length === 0 ? (
          <p>{m.agencies.reachableNone}</p>
        ) : (
          <ScrollTable label={m.agencies.reachable} columns={columnsOf(m.agencies.columns, ["id", "name", "city"], ["id"])}>
            {reachable.agencies.map((agency) => (
              <Row key={agency.id}>
                <Cell numeric>{agency.id}</Cell>
                <Cell header>{agency.tradeName}</Cell>
                <Cell>{agency.city}</Cell>
              </Row>
            ))}
          </ScrollTable>
        )}
      </Section>

      <Section id="notifications" title={m.notifications.title} intro={m.notifications.intro}>
        <PartnerNotificationForm
          action={notificationAction}
          current={partner.notificationUrl ?? ""}
          text={m.notifications}
          adminText={admin.notifications}
          {...form}
        />
      </Section>

      <Section id="retention" title={m.retention.title} intro={m.retention.intro}>
        <PartnerRetentionForm
          action={retentionAction}
          current={partner.customerDataRetentionDays}
          maxDays={env.customerDataRetentionMaxDays}
          text={m.retention}
          {...form}
        />
      </Section>

      <Section id="api-secrets" title={m.apiSecrets.title} intro={m.apiSecrets.intro}>
        <ApiSecretsPanel
          action={apiSecretAction}
          rows={secrets}
          {...apiSecretsPanelText(m)}
          permalink={path}
          hidden={{ partnerId: partner.id }}
        />
      </Section>

      <Section id="first-admin" title={m.admin.title} intro={m.admin.intro}>
        <p>{fill(m.admin.staffCount, { n: staff })}</p>
        <InviteAdminForm action={inviteAdminAction} text={m.admin} copy={{ copy: m.common.copy, copied: m.common.copied }} {...form} />
      </Section>

      <Section id="state" title={m.state.title} intro={partner.disabledAt ? m.state.disabledText : m.state.activeText}>
        {partner.disabledAt ? (
          <StateForm partnerId={partner.id} disabled={false} text={m.state.enable} />
        ) : (
          // Disabling stops the partner's checkouts and API at once: said before it is done.
          <ConfirmDisclosure summary={m.state.disable} consequence={fill(m.state.disableConsequence, { name: partner.name })}>
            <StateForm partnerId={partner.id} disabled text={m.state.disableConfirm} />
          </ConfirmDisclosure>
        )}
      </Section>
    </OperatorPage>
  );
}

/** Disables or enables the partner (stateAction). */
function StateForm({ partnerId, disabled, text }: { partnerId: string; disabled: boolean; text: string }) {
  return (
    <form action={stateAction}>
      <input type="hidden" name="partnerId" value={partnerId} />
      <input type="hidden" name="disabled" value={String(disabled)} />
      <Button variant="secondary" stretch={false}>
        {text}
      </Button>
    </form>
  );
}
