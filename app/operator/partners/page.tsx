import type { Metadata } from "next";
import { OperatorPage } from "@/app/operator/operator-page";
import { credentialText } from "@/components/operator/credential-text";
import { LinkButton } from "@/components/ui/link-button";
import { Cell, Row, columnsOf, ScrollTable } from "@/components/ui/table";
import { TextLink } from "@/components/ui/text-link";
import { getAppContext } from "@/lib/app-context";
import { getPartnerConsoleMessages } from "@/lib/i18n/partner-console-messages";
import { getLocale } from "@/lib/i18n/server";
import { listPartners } from "@/lib/operator/partners/partners-admin";
import { requireOperator } from "@/lib/operator/session";

const PATH = "/operator/partners";

export async function generateMetadata(): Promise<Metadata> {
  return { title: getPartnerConsoleMessages(await getLocale()).meta.partners };
}

/** Every partner, with its state, its financing key (last four only), its working secrets, agencies and staff. */
export default async function PartnersPage() {
  const operator = await requireOperator();
  const locale = await getLocale();
  const m = getPartnerConsoleMessages(locale);
  const { db } = await getAppContext();
  const partners = await listPartners(db);
  return (
    <OperatorPage operator={operator} locale={locale} path={PATH} section="partners">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">{m.list.title}</h1>
        <LinkButton href="/operator/partners/new">{m.list.create}</LinkButton>
      </div>
      <p>{m.list.intro}</p>
      {partners.length === 0 ? (
        <p>{m.list.none}</p>
      ) : (
        <ScrollTable
          label={m.list.title}
          caption={m.list.caption}
          wide
          columns={columnsOf(m.list.columns, ["name", "id", "state", "credential", "secrets", "agencies", "staff"], ["secrets", "staff"])}
        >
          {partners.map((partner) => (
            <Row key={partner.id}>
              <Cell header>
                <TextLink href={`/operator/partners/${encodeURIComponent(partner.id)}`}>{partner.name}</TextLink>
              </Cell>
              <Cell>
                <code className="font-mono">{partner.id}</code>
              </Cell>
              <Cell>{partner.disabledAt ? m.states.disabled : m.states.active}</Cell>
              <Cell>{credentialText(partner.credential, m)}</Cell>
              <Cell numeric>{partner.workingSecrets}</Cell>
              <Cell>{partner.agencies.length > 0 ? partner.agencies.join(", ") : m.common.none}</Cell>
              <Cell numeric>{partner.staff}</Cell>
            </Row>
          ))}
        </ScrollTable>
      )}
    </OperatorPage>
  );
}
