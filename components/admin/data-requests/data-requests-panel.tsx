"use client";

import { useActionState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { SelectField, TextField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { SubmitRow } from "@/components/ui/submit-button";
import type { DataRequestsMessages } from "@/lib/i18n/admin-messages";
import { fill } from "@/lib/text/template";
import { INITIAL_DATA_REQUESTS_STATE, type DataRequestRow, type DataRequestsState } from "../form-states";

/**
 * The data requests page's form: the search, the customer's sessions with what erasing would empty
 * and whether it can be done now, erase one or all (after a confirmation step), and the export (a
 * JSON download, a plain form post to its route; or shown here). Works without JavaScript: each
 * button posts the same form with its intent.
 */
export function DataRequestsPanel({
  action,
  page,
  text,
}: {
  action: (state: DataRequestsState, formData: FormData) => Promise<DataRequestsState>;
  page: string;
  text: DataRequestsMessages;
}) {
  const [state, formAction] = useActionState(action, INITIAL_DATA_REQUESTS_STATE, page);
  const query = state.by && state.value !== undefined ? { by: state.by, value: state.value } : undefined;
  const hidden = query ? (
    <>
      <input type="hidden" name="by" value={query.by} />
      <input type="hidden" name="value" value={query.value} />
    </>
  ) : null;
  const sessions = state.sessions ?? [];
  const references = (ids: readonly string[]) =>
    sessions
      .filter((s) => ids.includes(s.sessionId))
      .map((s) => s.reference)
      .join(", ");
  const erasable = sessions.filter((s) => s.erasable && s.customerData !== "erased");

  return (
    <div className="flex flex-col gap-6">
      {state.error ? (
        <Notice tone="error" live>
          {state.error === "forbidden" ? text.forbidden : text.invalid}
        </Notice>
      ) : null}
      <form action={formAction} className="flex flex-wrap items-end gap-3 rounded-card bg-surface p-4 shadow-sm" key={state.submission}>
        <input type="hidden" name="intent" value="search" />
        <SelectField
          name="by"
          id="data-request-by"
          label={text.by}
          defaultValue={state.by ?? "document"}
          options={[
            { value: "document", label: text.byDocument },
            { value: "email", label: text.byEmail },
          ]}
        />
        <TextField
          name="value"
          id="data-request-value"
          label={text.value}
          hint={text.valueHint}
          defaultValue={state.value ?? ""}
          required
          maxLength={254}
          autoComplete="off"
          spellCheck={false}
        />
        <SubmitRow pendingLabel={text.searching}>{text.search}</SubmitRow>
      </form>

      {state.erased && state.erased.length > 0 ? (
        <Notice tone="success" live>
          {fill(text.erased, { references: state.erased.join(", ") })}
        </Notice>
      ) : null}
      {state.refused?.map((refusal) => (
        <Notice tone="error" live key={refusal.reference}>
          {fill(text.refused, {
            reference: refusal.reference,
            retry: refusal.retry ? fill(text.retryAt, { retry: refusal.retry }) : text.retryLater,
          })}
        </Notice>
      ))}

      {state.confirm && state.confirm.length > 0 ? (
        <Card title={text.confirmTitle} id="data-request-confirm">
          <form action={formAction} className="flex flex-col gap-4" data-testid="data-request-confirm">
            {hidden}
            <input type="hidden" name="intent" value="erase" />
            {state.confirm.map((id) => (
              <input type="hidden" name="sessionId" value={id} key={id} />
            ))}
            <p>{fill(text.confirmIntro, { references: references(state.confirm) })}</p>
            <div className="flex flex-wrap gap-3">
              <Button stretch={false}>{text.confirm}</Button>
              <Button stretch={false} variant="secondary" name="intent" value="search">
                {text.cancel}
              </Button>
            </div>
          </form>
        </Card>
      ) : null}

      {query && state.sessions ? (
        sessions.length === 0 ? (
          <p data-testid="data-request-none">{text.none}</p>
        ) : (
          <section className="flex flex-col gap-4" aria-labelledby="data-request-found">
            <h2 id="data-request-found" className="text-xl font-bold">
              {fill(text.found, { count: String(sessions.length) })}
            </h2>
            <div className="flex flex-wrap gap-3">
              <form method="post" action="/admin/data-requests/export">
                {hidden}
                <Button stretch={false} variant="secondary" data-testid="data-request-json">
                  {text.exportJson}
                </Button>
              </form>
              <form action={formAction}>
                {hidden}
                <input type="hidden" name="intent" value="export" />
                <Button stretch={false} variant="secondary">
                  {text.exportPage}
                </Button>
              </form>
              {erasable.length > 0 ? (
                <form action={formAction}>
                  {hidden}
                  <input type="hidden" name="intent" value="ask-erase" />
                  {erasable.map((s) => (
                    <input type="hidden" name="sessionId" value={s.sessionId} key={s.sessionId} />
                  ))}
                  <Button stretch={false}>{text.eraseAll}</Button>
                </form>
              ) : null}
            </div>
            <ul className="flex flex-col gap-3" aria-label={text.caption}>
              {sessions.map((session) => (
                <SessionItem key={session.sessionId} session={session} text={text} action={formAction} hidden={hidden} />
              ))}
            </ul>
          </section>
        )
      ) : null}

      {state.exported ? (
        <Card title={text.exportTitle} id="data-request-export">
          <div className="flex flex-col gap-4" data-testid="data-request-export">
            <p>{fill(text.exportIntro, { at: state.exported.generated })}</p>
            {state.exported.sessions.map((session) => (
              <section key={session.reference} className="flex flex-col gap-2">
                <h3 className="text-lg font-semibold">{fill(text.exportSession, { reference: session.reference })}</h3>
                <dl className="grid gap-x-6 gap-y-1 sm:grid-cols-[max-content_1fr]">
                  {session.entries.map(([label, value]) => (
                    <Entry key={label} label={label} value={value} />
                  ))}
                  <dt className="text-muted">{text.exportFields.customer}</dt>
                  <dd className="font-semibold">
                    {session.customer === "erased" ? text.dataErased : session.customer === "unavailable" ? text.dataUnavailable : null}
                  </dd>
                  {Array.isArray(session.customer)
                    ? session.customer.map(([label, value]) => <Entry key={label} label={label} value={value} />)
                    : null}
                </dl>
              </section>
            ))}
          </div>
        </Card>
      ) : null}
    </div>
  );
}

function Entry({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt className="text-muted">{label}</dt>
      <dd className="font-semibold">{value}</dd>
    </>
  );
}

function SessionItem({
  session,
  text,
  action,
  hidden,
}: {
  session: DataRequestRow;
  text: DataRequestsMessages;
  action: (formData: FormData) => void;
  hidden: ReactNode;
}) {
  const data =
    session.customerData === "erased"
      ? text.dataErased
      : session.customerData === "unavailable"
        ? text.dataUnavailable
        : `${session.fields.join(", ")} ${text.searchHashes}`;
  const erasable = session.erasable ? text.yes : session.retry ? fill(text.notYet, { retry: session.retry }) : text.notYetNoDate;
  return (
    <li className="rounded-card bg-surface p-4 shadow-sm" data-testid="data-request-session">
      <dl className="grid gap-x-6 gap-y-1 sm:grid-cols-[max-content_1fr]">
        <Entry label={text.columns.reference} value={session.reference} />
        <Entry label={text.columns.state} value={session.state} />
        <Entry label={text.columns.created} value={session.created} />
        <Entry label={text.columns.data} value={data} />
        <Entry label={text.columns.erasable} value={erasable} />
      </dl>
      {session.erasable && session.customerData !== "erased" ? (
        <form action={action} className="mt-3">
          {hidden}
          <input type="hidden" name="intent" value="ask-erase" />
          <input type="hidden" name="sessionId" value={session.sessionId} />
          <Button stretch={false} variant="secondary" aria-label={fill(text.eraseLabel, { reference: session.reference })}>
            {text.erase}
          </Button>
        </form>
      ) : null}
    </li>
  );
}
