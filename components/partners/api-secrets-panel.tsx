"use client";

import { useActionState } from "react";
import { ShownOnce } from "@/components/ui/shown-once";
import { TextField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { SubmitButton, SubmitRow } from "@/components/ui/submit-button";
import { Cell, Row, columnsOf, ScrollTable } from "@/components/ui/table";
import { useFocusAfterSubmit } from "@/components/ui/use-focus-after-submit";
import { type ApiSecretsMessages } from "@/lib/i18n/partner-console-messages";
import { fill } from "@/lib/text/template";
import { API_SCOPES, type ApiScope } from "@/lib/vocabulary/api-scopes";
import { INITIAL_API_SECRETS_STATE, type ApiSecretRow, type ApiSecretsState } from "./api-secrets-state";
import { ConfirmDisclosure } from "@/components/ui/confirm-disclosure";

/*
 * A partner's checkout sessions API secrets: the list, a form to create one, and on each working
 * one "Rotate" and "Revoke"; each secret's scopes are ticked at its creation and listed (a secret
 * from before scopes shows "everything"). One action for all of them (`intent`), through useActionState, so a
 * new secret comes back into this component's state and is shown once, never in a URL nor in the
 * page the server renders next. Without JavaScript the post lands on `permalink` with the answer.
 * The operator console and the back-office each hand in their own action (`hidden`: the partner's
 * id, in the console).
 */

/** What a new secret's form has ticked at first: what a booking system needs to open and follow sessions. */
const FIRST_TICKED: readonly ApiScope[] = ["sessions:read", "sessions:open"];

export function ApiSecretsPanel({
  action,
  rows,
  text,
  errorPrefix,
  copy,
  permalink,
  hidden = {},
}: {
  action: (state: ApiSecretsState, formData: FormData) => Promise<ApiSecretsState>;
  rows: ApiSecretRow[];
  text: ApiSecretsMessages;
  errorPrefix: string;
  copy: { copy: string; copied: string };
  permalink: string;
  hidden?: Record<string, string>;
}) {
  const [state, formAction] = useActionState(action, INITIAL_API_SECRETS_STATE, permalink);
  const resultRef = useFocusAfterSubmit<HTMLDivElement>(state.submission);
  const hiddenFields = Object.entries(hidden).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />);
  const ticked = state.error && state.scopes ? state.scopes : FIRST_TICKED;
  const working = (row: ApiSecretRow) => row.state === "active" || row.state === "rotating";
  // A row's rotate and revoke: each its own form, its button named after the secret.
  const secretForm = (row: ApiSecretRow, intent: "rotate" | "revoke", label: string, children: string) => (
    <form action={formAction}>
      {hiddenFields}
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="secretId" value={row.id} />
      <SubmitButton variant="secondary" pendingLabel={text.working} label={fill(label, { name: row.name })}>
        {children}
      </SubmitButton>
    </form>
  );

  return (
    <div className="flex flex-col gap-4">
      <div ref={resultRef} tabIndex={-1} className="flex flex-col gap-3">
        {state.created ? (
          <ShownOnce
            title={text.newSecretTitle}
            intro={text.newSecretIntro}
            value={state.created.secret}
            copy={copy}
            after={state.created.previousValidUntil ? <p>{fill(text.rotatedNote, { until: state.created.previousValidUntil })}</p> : null}
          >
            <code data-testid="new-api-secret" className="rounded-md bg-surface px-2 py-1 font-mono text-sm break-all">
              {state.created.secret}
            </code>
          </ShownOnce>
        ) : null}
        {state.revoked ? (
          <Notice tone="success" live>
            {text.revoked}
          </Notice>
        ) : null}
        {state.error && state.error !== "invalid_name" && state.error !== "invalid_scopes" ? (
          <Notice tone="error" live>
            {text.errors[state.error]}
          </Notice>
        ) : null}
      </div>

      {rows.length === 0 ? (
        <p>{text.none}</p>
      ) : (
        <ScrollTable
          label={text.caption}
          wide
          columns={columnsOf(text.columns, ["name", "prefix", "scopes", "created", "lastUsed", "state", "actions"])}
        >
          {rows.map((row) => (
            <Row key={row.id}>
              <Cell header>{row.name}</Cell>
              <Cell>
                <code className="font-mono">{row.prefix ? `${row.prefix}…` : "—"}</code>
              </Cell>
              <Cell>
                <ul data-testid="api-secret-scopes">
                  {row.scopes.map((scope) => (
                    <li key={scope} className={scope === "all" ? "font-semibold" : undefined}>
                      {text.scopes[scope]}
                    </li>
                  ))}
                </ul>
              </Cell>
              <Cell>
                {row.created}
                {row.createdBy ? <span className="block text-sm text-muted">{fill(text.createdBy, { name: row.createdBy })}</span> : null}
              </Cell>
              <Cell>{row.lastUsed ?? text.never}</Cell>
              <Cell>{row.state === "rotating" ? fill(text.states.rotating, { until: row.until ?? "" }) : text.states[row.state]}</Cell>
              <Cell>
                {working(row) ? (
                  <div className="flex flex-wrap gap-2">
                    {row.state === "active" ? secretForm(row, "rotate", text.rotateLabel, text.rotate) : null}
                    <ConfirmDisclosure
                      summary={text.revoke}
                      summaryLabel={fill(text.revokeLabel, { name: row.name })}
                      consequence={fill(text.revokeConsequence, { name: row.name })}
                    >
                      {secretForm(row, "revoke", text.revokeConfirmLabel, text.revokeConfirm)}
                    </ConfirmDisclosure>
                  </div>
                ) : null}
              </Cell>
            </Row>
          ))}
        </ScrollTable>
      )}

      <form action={formAction} className="flex flex-col gap-3 border-t border-divider pt-4">
        {hiddenFields}
        <input type="hidden" name="intent" value="create" />
        <TextField
          key={state.submission}
          name="name"
          id="api-secret-name"
          label={text.name}
          hint={text.nameHint}
          maxLength={60}
          autoComplete="off"
          defaultValue={state.error === "invalid_name" ? (state.name ?? "") : ""}
          error={state.error === "invalid_name" ? text.errors.invalid_name : undefined}
          errorPrefix={errorPrefix}
        />
        <fieldset key={`scopes-${state.submission}`} className="flex flex-col gap-1" aria-describedby="api-secret-scopes-hint">
          <legend className="font-semibold">{text.scopesLegend}</legend>
          <p id="api-secret-scopes-hint" className="text-sm text-muted">
            {text.scopesHint}
          </p>
          {state.error === "invalid_scopes" ? (
            <p className="text-sm font-semibold text-danger">
              {errorPrefix} {text.errors.invalid_scopes}
            </p>
          ) : null}
          {API_SCOPES.map((scope) => (
            <label key={scope} className="flex min-h-11 items-center gap-3">
              <input type="checkbox" name={`scope:${scope}`} defaultChecked={ticked.includes(scope)} className="size-5 accent-brand" />
              <span>
                {text.scopes[scope]} <code className="font-mono text-sm text-muted">{scope}</code>
              </span>
            </label>
          ))}
        </fieldset>
        <SubmitRow pendingLabel={text.creating}>{text.create}</SubmitRow>
      </form>
    </div>
  );
}
