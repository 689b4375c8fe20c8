import type { Metadata } from "next";
import { OperatorPage } from "@/app/operator/operator-page";
import { Card } from "@/components/ui/card";
import { TextLink } from "@/components/ui/text-link";
import { getOperatorMessages } from "@/lib/i18n/operator-messages";
import { getLocale } from "@/lib/i18n/server";
import { requireOperator } from "@/lib/operator/session";

const PATH = "/operator";

export async function generateMetadata(): Promise<Metadata> {
  return { title: getOperatorMessages(await getLocale()).meta.home };
}

/** The console's home: what is here, and how operators themselves are managed. */
export default async function OperatorHomePage() {
  const operator = await requireOperator(PATH);
  const locale = await getLocale();
  const m = getOperatorMessages(locale);
  const t = m.home;
  return (
    <OperatorPage operator={operator} locale={locale} path={PATH} section="home">
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold">{t.title}</h1>
        <p className="text-muted">{t.intro}</p>
      </div>
      <Card title={t.sectionsHeading} id="sections-heading">
        <ul className="flex flex-col gap-3">
          <li>
            <TextLink href="/operator/partners">{t.partners}</TextLink>
            <p className="text-muted">{t.partnersIntro}</p>
          </li>
        </ul>
      </Card>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title={t.operatorsHeading} id="operators-heading">
          <p>{t.operatorsIntro}</p>
        </Card>
        <Card title={t.accountHeading} id="account-heading">
          <p>{t.accountIntro}</p>
        </Card>
      </div>
    </OperatorPage>
  );
}
