import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AdminPage } from "@/app/admin/admin-page";
import { OperationResults, StaffLinks } from "@/components/admin/operations/operation-results";
import { Button } from "@/components/ui/button";
import { SelectField, TextField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { TextLink } from "@/components/ui/text-link";
import {
  filtersQuery,
  PAGE_SIZES,
  parseOperationFilters,
  type FilterField,
  type OperationFilters,
} from "@/lib/backoffice/operations/filters";
import { listOperationsPage, operationHref, type ListedOperation } from "@/lib/backoffice/operations/operations";
import { ownsOperation } from "@/lib/backoffice/operations/ownership";
import { listPaymentLinks, type ListedLink } from "@/lib/backoffice/payment-links/payment-links";
import { apiProblem, type ApiProblem } from "@/lib/financing/api-problem";
import { requireStaff } from "@/lib/identity/staff";
import { OPERATION_STATUSES } from "@/lib/financing/contract";
import { isFinancingApiError } from "@/lib/financing/errors";
import type { Page } from "@/lib/financing/types";
import { getAdminMessages, type AdminMessages } from "@/lib/i18n/admin-messages";
import { getLocale } from "@/lib/i18n/server";

type SearchParams = Record<string, string | string[] | undefined>;
type Props = { searchParams: Promise<SearchParams> };

export async function generateMetadata(): Promise<Metadata> {
  return { title: getAdminMessages(await getLocale()).meta.operations };
}

/** The query's keys that are filters of the list (`ref` is a search, answered before them). */
const FILTER_KEYS = ["status", "from", "to", "origin", "size", "page"] as const;

/** The URL's own query, as it came (for the sign-in's way back and the language switch). */
function currentPath(query: SearchParams): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) params.append(key, v);
  const text = params.toString();
  return text === "" ? "/admin/operations" : `/admin/operations?${text}`;
}

/**
 * The agency's operations (`GET /operations`), filtered and paged from the URL, joined with our
 * checkout sessions; a search by booking reference (`GET /operations/by-external-id`); the CSV.
 */
export default async function OperationsPage({ searchParams }: Props) {
  const query = await searchParams;
  const path = currentPath(query);
  const staff = await requireStaff(path);
  const locale = await getLocale();
  const m = getAdminMessages(locale);

  const refValue = typeof query.ref === "string" ? query.ref.trim().slice(0, 200) : undefined;
  let refNotFound = false;
  let refProblem: ApiProblem | undefined;
  let found: string | undefined;
  if (refValue) {
    try {
      const operation = await staff.client.getOperationByExternalId(refValue);
      // Someone else's operation is answered as an unknown reference (the ownership rule).
      if (await ownsOperation(staff, operation.id)) found = operationHref(operation);
      else refNotFound = true;
    } catch (error) {
      if (isFinancingApiError(error) && error.status === 404) refNotFound = true;
      else refProblem = apiProblem(error, "finding an operation by its booking reference");
    }
  }
  if (found) redirect(found);

  const parsed = parseOperationFilters(query);
  // The filters form sends its empty choices too (`origin=&status=`): the view's address is the
  // short one, so a shared or bookmarked link reads as what it shows.
  if (parsed.ok && FILTER_KEYS.some((key) => query[key] === "")) redirect(`/admin/operations${filtersQuery(parsed.filters)}`);
  let result: { page: Page<ListedOperation> } | { problem: ApiProblem } | { links: ListedLink[]; total: number } | undefined;
  if (parsed.ok && parsed.filters.origin === "staff") {
    // Payment links live in our database (one may have no operation yet): listed from there.
    result = await listPaymentLinks(staff.db, staff.partner.id, parsed.filters);
  } else if (parsed.ok) {
    try {
      result = { page: await listOperationsPage(staff, parsed.filters) };
    } catch (error) {
      result = { problem: apiProblem(error, "listing operations") };
    }
  }
  const filters: OperationFilters = parsed.ok ? parsed.filters : { page: 1, size: 20 };
  const shown = (name: string) => (typeof query[name] === "string" ? (query[name] as string) : "");

  return (
    <AdminPage staff={staff} locale={locale} m={m} path={path} section="operations">
      <h1 className="text-3xl font-bold">{m.operations.title}</h1>

      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
        <section aria-labelledby="search-heading" className="rounded-card bg-surface p-4 shadow-sm sm:p-5">
          <h2 id="search-heading" className="mb-3 text-xl font-semibold">
            {m.operations.searchHeading}
          </h2>
          <form method="get" action="/admin/operations" role="search" aria-labelledby="search-heading" className="flex flex-col gap-3">
            <TextField
              id="ops-ref"
              name="ref"
              label={m.operations.reference}
              type="search"
              defaultValue={refValue ?? ""}
              autoComplete="off"
              spellCheck={false}
              maxLength={200}
            />
            <div>
              <Button stretch={false}>{m.operations.search}</Button>
            </div>
          </form>
        </section>

        <section aria-labelledby="filters-heading" className="rounded-card bg-surface p-4 shadow-sm sm:p-5">
          <h2 id="filters-heading" className="mb-3 text-xl font-semibold">
            {m.operations.filtersHeading}
          </h2>
          <form
            method="get"
            action="/admin/operations"
            className="grid gap-3 sm:grid-cols-2 xl:grid-cols-[minmax(0,1.6fr)_repeat(2,minmax(0,1fr))_minmax(0,1.6fr)_minmax(0,1fr)]"
          >
            <SelectField
              id="ops-status"
              name="status"
              label={m.operations.status}
              defaultValue={parsed.ok ? (filters.status ?? "") : shown("status")}
              placeholder={m.operations.anyStatus}
              options={OPERATION_STATUSES.map((status) => ({ value: status, label: `${m.common.statuses[status]} (${status})` }))}
            />
            {(["from", "to"] as const).map((name) => (
              <TextField
                key={name}
                id={`ops-${name}`}
                name={name}
                label={m.operations[name]}
                type="date"
                defaultValue={parsed.ok ? (filters[name] ?? "") : shown(name)}
              />
            ))}
            <SelectField
              id="ops-origin"
              name="origin"
              label={m.operations.origin}
              defaultValue={parsed.ok ? (filters.origin ?? "") : shown("origin")}
              options={[
                { value: "", label: m.operations.anyOrigin },
                { value: "staff", label: m.operations.staffOrigin },
              ]}
            />
            <SelectField
              id="ops-size"
              name="size"
              label={m.operations.size}
              defaultValue={String(filters.size)}
              options={[...new Set<number>([...PAGE_SIZES, filters.size])]
                .sort((a, b) => a - b)
                .map((size) => ({ value: String(size), label: String(size) }))}
            />
            <div className="flex flex-wrap items-center gap-4 sm:col-span-2 xl:col-span-5">
              <Button stretch={false}>{m.operations.apply}</Button>
              <TextLink href="/admin/operations">{m.operations.clear}</TextLink>
            </div>
          </form>
        </section>
      </div>

      {refNotFound && refValue ? (
        <Notice tone="warning" live>
          {m.operations.notFound(refValue)}
        </Notice>
      ) : null}
      {refProblem ? <Notice tone="error">{problemText(m, refProblem)}</Notice> : null}
      {!parsed.ok ? (
        <Notice tone="error" title={m.operations.problemsTitle}>
          <ul className="list-disc pl-5">
            {parsed.problems.map((field: FilterField) => (
              <li key={field}>{m.operations.problems[field]}</li>
            ))}
          </ul>
        </Notice>
      ) : null}
      {result && "problem" in result ? <Notice tone="error">{problemText(m, result.problem)}</Notice> : null}
      {result && "page" in result ? <OperationResults page={result.page} filters={filters} m={m} locale={locale} /> : null}
      {result && "links" in result ? (
        <StaffLinks links={result.links} total={result.total} filters={filters} m={m} locale={locale} />
      ) : null}
    </AdminPage>
  );
}

function problemText(m: AdminMessages, problem: ApiProblem): string {
  return problem === "auth" ? m.common.apiAuth : problem === "forbidden" ? m.common.apiForbidden : m.common.apiUnavailable;
}
