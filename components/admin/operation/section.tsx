import type { ReactNode } from "react";
import { Card } from "@/components/ui/card";
import { ScrollTable, type Column } from "@/components/ui/table";
import type { OperationDetail } from "@/lib/backoffice/operations/operations";
import type { AdminMessages } from "@/lib/i18n/admin-messages";
import type { Locale } from "@/lib/i18n/locales";

/** What each section of the operation page is drawn from. */
export interface OperationSectionProps {
  detail: OperationDetail;
  m: AdminMessages;
  locale: Locale;
}

/** The columns of a table, in this order, named by its messages. */
export function columnsOf<K extends string>(labels: Record<K, string>, keys: readonly K[], numeric: readonly K[] = []): Column[] {
  return keys.map((key) => ({ key, label: labels[key], numeric: numeric.includes(key) }));
}

/** A titled card holding a table, or a line saying there is nothing to list. */
export function TableCard({
  title,
  id,
  empty,
  emptyText,
  label,
  columns,
  children,
}: {
  title: string;
  id: string;
  empty: boolean;
  emptyText: string;
  label: string;
  columns: readonly Column[];
  children: ReactNode;
}) {
  return (
    <Card title={title} id={id}>
      {empty ? (
        <p className="text-muted">{emptyText}</p>
      ) : (
        <ScrollTable label={label} columns={columns}>
          {children}
        </ScrollTable>
      )}
    </Card>
  );
}
