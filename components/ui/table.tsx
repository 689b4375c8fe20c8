import type { ReactNode } from "react";
import { cx } from "./cx";

export interface Column {
  key: string;
  label: ReactNode;
  /** Figures: right-aligned. */
  numeric?: boolean;
}

/** Columns in the order of `keys`, each labelled by its text in `labels`; those in `numeric` hold figures. */
export function columnsOf<K extends string>(labels: Record<K, ReactNode>, keys: readonly K[], numeric: readonly K[] = []): Column[] {
  return keys.map((key) => ({ key, label: labels[key], numeric: numeric.includes(key) }));
}

/**
 * A table that scrolls sideways on a phone, in a focusable region so a keyboard can scroll it.
 * `label` names the region and, unless `caption` differs, the table. Rows are `Row`s of `Cell`s.
 */
export function ScrollTable({
  label,
  caption = label,
  columns,
  wide = false,
  className,
  children,
}: {
  label: string;
  caption?: string;
  columns: readonly Column[];
  /** Many columns: a wider minimum before it scrolls. */
  wide?: boolean;
  /** On the scrolling region (a surface, when to show it). */
  className?: string;
  children: ReactNode;
}) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className={cx("overflow-x-auto", className)}>
      <table className={cx("w-full border-collapse text-left text-sm", wide ? "min-w-[44rem]" : "min-w-[32rem]")}>
        <caption className="sr-only">{caption}</caption>
        <TableHead
          columns={columns}
          className="border-b-2 border-divider"
          cellClassName={(column) => cx(CELL, "font-semibold", column.numeric && "text-right")}
        />
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

const CELL = "px-3 py-2";

/** A table's column headings; `cellClassName` styles each heading. */
export function TableHead({
  columns,
  className,
  cellClassName,
}: {
  columns: readonly Column[];
  className?: string;
  cellClassName?: (column: Column) => string;
}) {
  return (
    <thead>
      <tr className={className}>
        {columns.map((column) => (
          <th key={column.key} scope="col" className={cellClassName?.(column)}>
            {column.label}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** A body row; `top` aligns its cells to the top (cells of several lines). */
export function Row({ top = false, children }: { top?: boolean; children: ReactNode }) {
  return <tr className={cx("border-t border-divider", top && "align-top")}>{children}</tr>;
}

/** A body cell; `numeric` right-aligns it in even figures; `header` makes it the row's header. */
export function Cell({
  numeric = false,
  header = false,
  className,
  children,
}: {
  numeric?: boolean;
  header?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const look = cx(CELL, numeric && "text-right tabular-nums", className);
  return header ? (
    <th scope="row" className={look}>
      {children}
    </th>
  ) : (
    <td className={look}>{children}</td>
  );
}
