import type { Metadata } from "next";
import { AdminPage } from "@/app/admin/admin-page";
import { ApiSecretsPanel } from "@/components/partners/api-secrets-panel";
import { apiSecretRows } from "@/components/partners/api-secrets-rows";
import { partnerApiSecrets } from "@/lib/backoffice/api-secrets/api-secrets";
import { requirePermission } from "@/lib/identity/staff";
import { getAdminMessages } from "@/lib/i18n/admin-messages";
import { apiSecretsPanelText, getPartnerConsoleMessages } from "@/lib/i18n/partner-console-messages";
import { getLocale } from "@/lib/i18n/server";
import { apiSecretAction } from "./actions";

const PATH = "/admin/settings/api-secrets";

export async function generateMetadata(): Promise<Metadata> {
  return { title: getPartnerConsoleMessages(await getLocale()).meta.apiSecrets };
}

/**
 * The partner's checkout sessions API secrets, managed by its administrators (the `api-secrets`
 * permission): only this partner's, the list and every action scoped by the session's partner.
 */
export default async function ApiSecretsPage() {
  const staff = await requirePermission("api-secrets", PATH);
  const locale = await getLocale();
  const m = getAdminMessages(locale);
  const t = getPartnerConsoleMessages(locale);
  const rows = apiSecretRows(await partnerApiSecrets(staff.db, staff.partner.id), locale);
  return (
    <AdminPage staff={staff} locale={locale} m={m} path={PATH} section="apiSecrets">
      <div className="flex flex-col gap-6">
        <h1 className="text-3xl font-bold">{t.apiSecrets.title}</h1>
        <p>{t.apiSecrets.intro}</p>
        <section aria-labelledby="api-secrets" className="flex flex-col gap-4 rounded-card bg-surface p-4 shadow-sm">
          <h2 id="api-secrets" className="sr-only">
            {t.apiSecrets.title}
          </h2>
          <ApiSecretsPanel action={apiSecretAction} rows={rows} {...apiSecretsPanelText(t)} permalink={PATH} />
        </section>
      </div>
    </AdminPage>
  );
}
