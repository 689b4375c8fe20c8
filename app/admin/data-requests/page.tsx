import type { Metadata } from "next";
import { AdminPage } from "@/app/admin/admin-page";
import { DataRequestsPanel } from "@/components/admin/data-requests/data-requests-panel";
import { requirePermission } from "@/lib/identity/staff";
import { getAdminMessages } from "@/lib/i18n/admin-messages";
import { getLocale } from "@/lib/i18n/server";
import { dataRequestAction } from "./actions";

const PATH = "/admin/data-requests";

export async function generateMetadata(): Promise<Metadata> {
  return { title: getAdminMessages(await getLocale()).meta.dataRequests };
}

/**
 * A customer's data requests (access, portability, erasure): find the partner's sessions holding
 * their data by document number or e-mail, export it, erase it. Staff holding the "data-requests"
 * permission only (an admin granted it); the search goes in a form post, never in the URL.
 */
export default async function DataRequestsPage() {
  const staff = await requirePermission("data-requests", PATH);
  const locale = await getLocale();
  const m = getAdminMessages(locale);
  const t = m.dataRequests;
  return (
    <AdminPage staff={staff} locale={locale} m={m} path={PATH} section="dataRequests">
      <div className="flex flex-col gap-6">
        <h1 className="text-3xl font-bold">{t.title}</h1>
        <p>{t.intro}</p>
        <DataRequestsPanel action={dataRequestAction} page={PATH} text={t} />
      </div>
    </AdminPage>
  );
}
