import type { Metadata } from "next";
import { CreatePartnerForm } from "@/components/operator/create-partner-form";
import { OperatorPage } from "@/app/operator/operator-page";
import { TextLink } from "@/components/ui/text-link";
import { getPartnerConsoleMessages } from "@/lib/i18n/partner-console-messages";
import { getLocale } from "@/lib/i18n/server";
import { requireOperator } from "@/lib/operator/session";
import { createPartnerAction } from "./actions";

const PATH = "/operator/partners/new";

export async function generateMetadata(): Promise<Metadata> {
  return { title: getPartnerConsoleMessages(await getLocale()).meta.newPartner };
}

/** A new partner: its id and name, then its page for the rest. */
export default async function NewPartnerPage() {
  const operator = await requireOperator();
  const locale = await getLocale();
  const m = getPartnerConsoleMessages(locale);
  return (
    <OperatorPage operator={operator} locale={locale} path={PATH} section="partners">
      <div className="flex max-w-2xl flex-col gap-6">
        <TextLink href="/operator/partners">{m.detail.back}</TextLink>
        <h1 className="text-3xl font-bold">{m.create.title}</h1>
        <p>{m.create.intro}</p>
        <div className="rounded-card bg-surface p-4 shadow-sm">
          <CreatePartnerForm action={createPartnerAction} text={m.create} errorPrefix={m.common.errorPrefix} />
        </div>
      </div>
    </OperatorPage>
  );
}
