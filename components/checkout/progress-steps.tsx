/** The three steps of the checkout, the current one marked with aria-current="step". */
export function ProgressSteps({
  current,
  labels,
  title,
  doneLabel,
  label,
}: {
  /** 1, 2 or 3; 4 once every step is behind the customer. */
  current: number;
  labels: readonly [string, string, string];
  /** "Step 2 of 3", read before the list. */
  title: string;
  doneLabel: string;
  label: string;
}) {
  return (
    <div>
      <p className="sr-only">{title}</p>
      <ol aria-label={label} className="grid grid-cols-3 gap-2 text-sm">
        {labels.map((text, index) => {
          const step = index + 1;
          const done = step < current;
          const active = step === current;
          return (
            <li key={text} aria-current={active ? "step" : undefined} className="flex min-w-0 flex-col items-start gap-1">
              <span aria-hidden="true" className={`h-1.5 w-full rounded-full ${done || active ? "bg-brand" : "bg-divider"}`} />
              <span className={active ? "font-semibold text-ink" : "text-muted"}>
                {text}
                {done ? <span className="sr-only"> ({doneLabel})</span> : null}
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
