import type { ReactNode } from "react";
import { StatusBadge } from "@/components/admin/status-badge";
import { cx } from "@/components/ui/cx";
import { Pager } from "@/components/ui/pager";
import { Cell, Row, ScrollTable, type Column } from "@/components/ui/table";
import { TEXT_LINK, TextLink } from "@/components/ui/text-link";
import { filtersQuery, type OperationFilters } from "@/lib/backoffice/operations/filters";
import { operationHref, type ListedOperation } from "@/lib/backoffice/operations/operations";
import type { ListedLink } from "@/lib/backoffice/payment-links/payment-links";
import { customerLabel, formatDateTime } from "@/lib/backoffice/common/format";
import { centsFromAmount } from "@/lib/financing/money";
import type { Page } from "@/lib/financing/types";
import type { AdminMessages } from "@/lib/i18n/admin-messages";
import { formatAmount } from "@/lib/i18n/format";
import type { Locale } from "@/lib/i18n/locales";
import { getPaymentLinkMessages } from "@/lib/i18n/payment-link-messages";

/*
 * The operations list's results: the partner API's page of operations, or the "created by staff"
 * view of the partner's payment links. Both on the shared table, with the shared pager.
 */

/** A page of the agency's operations: a card each on a phone, the table on wider screens, the pager. */
export function OperationResults({
  page,
  filters,
  m,
  locale,
}: {
  page: Page<ListedOperation>;
  filters: OperationFilters;
  m: AdminMessages;
  locale: Locale;
}) {
  const first = (filters.page - 1) * filters.size + 1;
  const last = first + page.content.length - 1;
  const totalPages = Math.max(page.totalPages, 1);
  return (
    <section aria-labelledby="results-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-2">
        <h2 id="results-heading" className="text-xl font-semibold">
          {page.content.length > 0 ? m.operations.showing(first, last, page.totalElements) : m.operations.noResults}
        </h2>
        <p className="flex flex-col items-start">
          <a href={`/admin/operations/export${filtersQuery(filters, { page: 1 })}`} className={TEXT_LINK} download>
            {m.operations.export}
          </a>
          <span className="text-sm text-muted">{m.operations.exportHint}</span>
        </p>
      </div>
      {page.content.length > 0 ? (
        // A phone gets one card per operation; wider screens the table (only one is ever displayed).
        <ul aria-label={m.operations.caption} className="flex flex-col gap-3 sm:hidden">
          {page.content.map(({ operation, session }) => (
            <li key={operation.id} className="rounded-card bg-surface p-4 shadow-sm">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <TextLink href={operationHref(operation)} className="text-lg">
                  {operation.externalId ?? operation.id}
                </TextLink>
                <StatusBadge status={operation.status} m={m} />
              </div>
              <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
                <dt className="text-muted">{m.operations.columns.customer}</dt>
                <dd>{session ? `${customerLabel(session, m.common)} · ${session.packageName}` : m.operations.notOurs}</dd>
                <dt className="text-muted">{m.operations.columns.price}</dt>
                <dd className="font-semibold tabular-nums">{formatAmount(operation.totalPrice, locale)}</dd>
                <dt className="text-muted">{m.operations.columns.updated}</dt>
                <dd>{operation.updatedAt ? formatDateTime(operation.updatedAt, locale) : m.common.notAvailable}</dd>
                <dt className="text-muted">{m.operations.columns.operation}</dt>
                <dd>
                  {operation.operationNumber !== undefined ? `№ ${operation.operationNumber} · ` : ""}
                  <code className="text-xs">{operation.id}</code>
                </dd>
              </dl>
            </li>
          ))}
        </ul>
      ) : null}
      {page.content.length > 0 ? (
        <ResultsTable m={m} caption={m.operations.caption} columns={operationColumns(m)} className="hidden sm:block">
          {page.content.map(({ operation, session }) => (
            <Row key={operation.id} top>
              <LinkHeader href={operationHref(operation)}>{operation.externalId ?? operation.id}</LinkHeader>
              <Cell>
                {operation.operationNumber !== undefined ? <span className="block">№ {operation.operationNumber}</span> : null}
                <code className="text-xs text-muted">{operation.id}</code>
              </Cell>
              <Cell>
                {session ? (
                  <>
                    <span className="block">{customerLabel(session, m.common)}</span>
                    <span className="text-muted">{session.packageName}</span>
                  </>
                ) : (
                  <span className="text-muted">{m.operations.notOurs}</span>
                )}
              </Cell>
              <Cell>
                <StatusBadge status={operation.status} m={m} />
              </Cell>
              <Cell numeric>{formatAmount(operation.totalPrice, locale)}</Cell>
              <Cell>{operation.updatedAt ? formatDateTime(operation.updatedAt, locale) : m.common.notAvailable}</Cell>
            </Row>
          ))}
        </ResultsTable>
      ) : null}
      {page.totalElements > 0 ? <OperationsPager filters={filters} totalPages={totalPages} m={m} /> : null}
    </section>
  );
}

/** The "created by staff" view: the partner's payment links, with or without an operation yet. */
export function StaffLinks({
  links: rows,
  total,
  filters,
  m,
  locale,
}: {
  links: ListedLink[];
  total: number;
  filters: OperationFilters;
  m: AdminMessages;
  locale: Locale;
}) {
  const links = getPaymentLinkMessages(locale);
  const first = (filters.page - 1) * filters.size + 1;
  const last = first + rows.length - 1;
  const totalPages = Math.max(Math.ceil(total / filters.size), 1);
  return (
    <section aria-labelledby="results-heading" className="flex flex-col gap-3">
      <h2 id="results-heading" className="text-xl font-semibold">
        {rows.length > 0 ? m.operations.staffLinksShowing(first, last, total) : m.operations.staffLinksNone}
      </h2>
      {rows.length > 0 ? (
        <ResultsTable m={m} caption={m.operations.staffLinksCaption} columns={staffLinkColumns(m)}>
          {rows.map(({ session, state, creatorName }) => (
            <Row key={session.id} top>
              <LinkHeader href={`/admin/payment-links/${encodeURIComponent(session.id)}`} detail={session.booking.packageName}>
                {session.bookingReference}
              </LinkHeader>
              <Cell>{creatorName ?? m.operation.formerStaff}</Cell>
              <Cell>
                {session.operationStatus ? (
                  <StatusBadge status={session.operationStatus} m={m} />
                ) : (
                  <span className="text-muted">
                    {m.operations.noOperationYet} · {session.revokedAt ? links.revokedState : links.states[state]}
                  </span>
                )}
              </Cell>
              <Cell numeric>
                {formatAmount(
                  { cents: centsFromAmount(session.booking.totalPrice.amount), currency: session.booking.totalPrice.currency },
                  locale,
                )}
              </Cell>
              <Cell>{formatDateTime(session.updatedAt, locale)}</Cell>
            </Row>
          ))}
        </ResultsTable>
      ) : null}
      {total > 0 ? <OperationsPager filters={filters} totalPages={totalPages} m={m} /> : null}
    </section>
  );
}

/** The list's pages, each link keeping the current filters. */
/** A list's results as a table on a surface, scrolling sideways on a phone. */
function ResultsTable({
  m,
  caption,
  columns,
  className,
  children,
}: {
  m: AdminMessages;
  caption: string;
  columns: Column[];
  className?: string;
  children: ReactNode;
}) {
  return (
    <ScrollTable
      label={m.operations.scrollHint}
      caption={caption}
      columns={columns}
      wide
      className={cx("rounded-card bg-surface shadow-sm", className)}
    >
      {children}
    </ScrollTable>
  );
}

/** A row's header: the link to the item's page, and under it an optional detail. */
function LinkHeader({ href, detail, children }: { href: string; detail?: string; children: ReactNode }) {
  return (
    <Cell header className="font-normal whitespace-nowrap">
      <TextLink href={href}>{children}</TextLink>
      {detail !== undefined ? <span className="block text-muted">{detail}</span> : null}
    </Cell>
  );
}

function OperationsPager({ filters, totalPages, m }: { filters: OperationFilters; totalPages: number; m: AdminMessages }) {
  return (
    <Pager
      label={m.operations.pagesLabel}
      page={filters.page}
      totalPages={totalPages}
      hrefOf={(page) => `/admin/operations${filtersQuery(filters, { page })}`}
      text={{ previous: m.operations.previous, next: m.operations.next, page: m.operations.page }}
    />
  );
}

function operationColumns(m: AdminMessages): Column[] {
  const { columns } = m.operations;
  return [
    { key: "reference", label: columns.reference },
    { key: "operation", label: columns.operation },
    { key: "customer", label: columns.customer },
    { key: "status", label: columns.status },
    { key: "price", label: columns.price, numeric: true },
    { key: "updated", label: columns.updated },
  ];
}

function staffLinkColumns(m: AdminMessages): Column[] {
  const { columns } = m.operations;
  return [
    { key: "reference", label: columns.reference },
    { key: "createdBy", label: m.operations.createdBy },
    { key: "status", label: columns.status },
    { key: "price", label: columns.price, numeric: true },
    { key: "updated", label: columns.updated },
  ];
}
