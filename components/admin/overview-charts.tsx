import type { ReactNode } from "react";
import { TableHead } from "@/components/ui/table";
import type { Overview } from "@/lib/backoffice/operations/overview";
import type { FunnelStep } from "@/lib/backoffice/operations/overview-steps";
import type { AdminMessages } from "@/lib/i18n/admin-messages";
import { intlLocale } from "@/lib/i18n/format";
import type { Locale } from "@/lib/i18n/locales";

/*
 * The back-office home's overview, drawn on the server: plain SVG (no client JavaScript, no chart
 * library), each chart a `role="img"` with a title and a description, followed by a real table
 * with the same figures. The tables are visually hidden (`sr-only`), always there for screen
 * readers; sighted staff read the figures off the bars' labels (the funnel) and the axis (the days).
 */

type OverviewMessages = AdminMessages["overview"];

/** Each chart's table's column headings. */
const COLUMNS = {
  funnel: ["stepColumn", "countColumn", "shareColumn"],
  daily: ["dayColumn", "openedColumn", "confirmedColumn"],
} as const satisfies Record<string, readonly (keyof OverviewMessages)[]>;

/**
 * A chart: the SVG, an image with its title (the chart's, by its name) and description, then the
 * same figures as a table for screen readers (the chart's caption and columns, and `rows`).
 */
function Chart({
  name,
  m,
  size: [width, height],
  description,
  rows,
  children,
}: {
  name: keyof typeof COLUMNS;
  m: OverviewMessages;
  /** The SVG's coordinates: width and height. */
  size: [number, number];
  description: string;
  rows: ReactNode;
  children: ReactNode;
}) {
  const title = m[`${name}Title`];
  const caption = m[`${name}Caption`];
  const columns = COLUMNS[name].map((key) => m[key]);
  return (
    <div className="flex flex-col gap-2">
      <svg
        role="img"
        aria-labelledby={`overview-${name}-title`}
        aria-describedby={`overview-${name}-desc`}
        viewBox={`0 0 ${width} ${height}`}
        className="h-auto w-full max-w-3xl"
        data-chart={name}
      >
        <title id={`overview-${name}-title`}>{title}</title>
        <desc id={`overview-${name}-desc`}>{description}</desc>
        {children}
      </svg>
      {/* The wrapper is what is hidden: a table does not shrink to sr-only's 1 px. */}
      <div className="sr-only">
        <table>
          <caption>{caption}</caption>
          <TableHead columns={columns.map((label) => ({ key: label, label }))} />
          <tbody>{rows}</tbody>
        </table>
      </div>
    </div>
  );
}

const STEPS: readonly FunnelStep[] = ["opened", "detailsGiven", "planChosen", "signed"];
const OUTCOMES: readonly FunnelStep[] = ["confirmed", "refused", "expired"];
/** Each bar's colour (Tailwind's fill utilities of the theme's colours, all 3:1 or more on the surface). */
const BAR_CLASS: Record<FunnelStep, string> = {
  opened: "fill-brand",
  detailsGiven: "fill-brand",
  planChosen: "fill-brand",
  signed: "fill-brand",
  confirmed: "fill-success",
  refused: "fill-danger",
  expired: "fill-line",
};

function formatters(locale: Locale) {
  const intl = intlLocale(locale);
  const number = new Intl.NumberFormat(intl);
  const percent = new Intl.NumberFormat(intl, { style: "percent", maximumFractionDigits: 0 });
  // The days are Madrid's calendar days already: formatted as UTC dates, so no zone shifts them.
  const shortDay = new Intl.DateTimeFormat(intl, { day: "numeric", month: "short", timeZone: "UTC" });
  const longDay = new Intl.DateTimeFormat(intl, { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
  const asDate = (day: string) => new Date(`${day}T00:00:00Z`);
  return {
    number: (n: number) => number.format(n),
    share: (n: number, of: number) => (of === 0 ? "–" : percent.format(n / of)),
    shortDay: (day: string) => shortDay.format(asDate(day)),
    longDay: (day: string) => longDay.format(asDate(day)),
  };
}

export function OverviewFunnel({ overview, m, locale }: { overview: Overview; m: OverviewMessages; locale: Locale }) {
  const f = formatters(locale);
  const { funnel } = overview;
  const summary = [...STEPS, ...OUTCOMES].map((step) => `${m.steps[step]} ${f.number(funnel[step])}`).join(", ");

  const width = 640;
  const labelWidth = 170;
  const barMax = 360;
  const rowHeight = 34;
  const outcomesGap = 30;
  const height = rowHeight * (STEPS.length + OUTCOMES.length) + outcomesGap + 8;
  const y = (index: number) => 8 + index * rowHeight + (index >= STEPS.length ? outcomesGap : 0);
  const barWidth = (n: number) => (funnel.opened === 0 ? 0 : Math.max(n > 0 ? 2 : 0, (n / funnel.opened) * barMax));

  return (
    <Chart
      name="funnel"
      m={m}
      size={[width, height]}
      description={m.funnelDescription(summary)}
      rows={[...STEPS, ...OUTCOMES].map((step) => (
        <tr key={step} data-step={step}>
          <th scope="row">{OUTCOMES.includes(step) ? `${m.outcomes}: ${m.steps[step]}` : m.steps[step]}</th>
          <td>{f.number(funnel[step])}</td>
          <td>{f.share(funnel[step], funnel.opened)}</td>
        </tr>
      ))}
    >
      {[...STEPS, ...OUTCOMES].map((step, index) => {
        const top = y(index);
        const w = barWidth(funnel[step]);
        return (
          <g key={step}>
            <text x={labelWidth - 10} y={top + 17} textAnchor="end" dominantBaseline="middle" className="fill-ink text-[14px]">
              {m.steps[step]}
            </text>
            <rect x={labelWidth} y={top + 4} width={barMax} height={26} rx={3} className="fill-canvas" />
            <rect x={labelWidth} y={top + 4} width={w} height={26} rx={3} className={BAR_CLASS[step]} />
            <text x={labelWidth + barMax + 10} y={top + 17} dominantBaseline="middle" className="fill-ink text-[14px] font-semibold">
              {`${f.number(funnel[step])} · ${f.share(funnel[step], funnel.opened)}`}
            </text>
          </g>
        );
      })}
      <text x={labelWidth} y={y(STEPS.length) - 8} className="fill-muted text-[13px]">
        {m.outcomes}
      </text>
    </Chart>
  );
}

/** The smallest of 1, 2, 5 × 10ⁿ at or above the busiest day: round gridlines. */
function scaleTop(max: number): number {
  if (max <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * magnitude >= max) return step * magnitude;
  return 10 * magnitude;
}

export function OverviewDaily({ overview, m, locale }: { overview: Overview; m: OverviewMessages; locale: Locale }) {
  const f = formatters(locale);
  const { days, funnel } = overview;
  const busiest = days.reduce<(typeof days)[number] | undefined>(
    (best, day) => (!best || day.opened > best.opened ? day : best),
    undefined,
  );
  const description = m.dailyDescription(
    m.dailyTotal(f.number(funnel.opened), f.number(funnel.confirmed)),
    busiest && busiest.opened > 0 ? m.busiestDay(f.longDay(busiest.day), f.number(busiest.opened)) : m.noSessions,
  );

  const width = 640;
  const height = 240;
  const left = 44;
  const right = 8;
  const top = 12;
  const bottom = 196;
  const plotHeight = bottom - top;
  const slot = (width - left - right) / Math.max(days.length, 1);
  const barWidth = Math.max(slot - 4, 1);
  const topValue = scaleTop(Math.max(0, ...days.map((d) => d.opened)));
  const barHeight = (n: number) => (n / topValue) * plotHeight;
  // Whole numbers only: the middle line when the top is even.
  const gridlines = topValue % 2 === 0 ? [0, topValue / 2, topValue] : [0, topValue];
  // A date under the first day, then every 7th, and under the last day.
  const labelled = new Set([0, 7, 14, 21, days.length - 1]);

  return (
    <Chart
      name="daily"
      m={m}
      size={[width, height]}
      description={description}
      rows={days.map((day) => (
        <tr key={day.day} data-day={day.day}>
          <th scope="row">
            <time dateTime={day.day}>{f.longDay(day.day)}</time>
          </th>
          <td>{f.number(day.opened)}</td>
          <td>{f.number(day.confirmed)}</td>
        </tr>
      ))}
    >
      {gridlines.map((value) => {
        const gy = bottom - barHeight(value);
        return (
          <g key={value}>
            <line x1={left} x2={width - right} y1={gy} y2={gy} className="stroke-divider" strokeWidth={1} />
            <text x={left - 6} y={gy} textAnchor="end" dominantBaseline="middle" className="fill-muted text-[12px]">
              {f.number(value)}
            </text>
          </g>
        );
      })}
      {days.map((day, index) => {
        const x = left + index * slot + (slot - barWidth) / 2;
        const opened = barHeight(day.opened);
        const confirmed = barHeight(day.confirmed);
        return (
          <g key={day.day} data-day={day.day}>
            {day.opened > 0 ? (
              <rect x={x} y={bottom - opened} width={barWidth} height={opened} className="fill-brand-soft stroke-brand" strokeWidth={1} />
            ) : null}
            {day.confirmed > 0 ? <rect x={x} y={bottom - confirmed} width={barWidth} height={confirmed} className="fill-brand" /> : null}
            {labelled.has(index) ? (
              <text
                x={index === 0 ? x : index === days.length - 1 ? x + barWidth : x + barWidth / 2}
                y={bottom + 16}
                textAnchor={index === 0 ? "start" : index === days.length - 1 ? "end" : "middle"}
                className="fill-muted text-[12px]"
              >
                {f.shortDay(day.day)}
              </text>
            ) : null}
          </g>
        );
      })}
      <g>
        <rect x={left} y={height - 18} width={12} height={12} className="fill-brand-soft stroke-brand" strokeWidth={1} />
        <text x={left + 18} y={height - 12} dominantBaseline="middle" className="fill-ink text-[12px]">
          {m.legendOpened}
        </text>
        <rect x={left + 150} y={height - 18} width={12} height={12} className="fill-brand" />
        <text x={left + 168} y={height - 12} dominantBaseline="middle" className="fill-ink text-[12px]">
          {m.legendConfirmed}
        </text>
      </g>
    </Chart>
  );
}
