"use server";

import { refresh } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import type {
  CredentialState,
  InviteAdminState,
  PartnerNotificationState,
  PartnerRetentionState,
  PartnerSettingsState,
} from "@/components/operator/form-states";
import { apiSecretsState } from "@/components/partners/api-secrets-rows";
import type { ApiSecretsState } from "@/components/partners/api-secrets-state";
import { getAppContext } from "@/lib/app-context";
import { apiSecretIntentSchema, runApiSecretIntent, type ApiSecretOutcome } from "@/lib/backoffice/api-secrets/api-secrets";
import { NOTIFICATION_URL_MAX_LENGTH, notificationUrlProblem } from "@/lib/checkout/background/notification-url";
import { getEnv } from "@/lib/config/env";
import { getLocale } from "@/lib/i18n/server";
import { operatorAction } from "@/lib/operator/operator-action";
import { setPartnerCredential, type CredentialChoice } from "@/lib/operator/partners/credential";
import {
  invitePartnerAdmin,
  setPartnerAgencies,
  setPartnerDisabled,
  setPartnerNotificationUrl,
  setPartnerRetentionDays,
  updatePartnerSettings,
} from "@/lib/operator/partners/partners-admin";
import { checkAgencyIds, RETURN_URL_MAX_LENGTH } from "@/lib/operator/partners/settings";
import { formAction, formOf, typedValues } from "@/lib/validated-action";

/*
 * The actions of a partner's page in the operator console: each validates its form (zod, through
 * operatorAction, which checks the operator first), calls lib/operator, and answers the form (or
 * redirects back to the page). The partner is named by the form's `partnerId`; an unknown one is
 * "not found". Each change is audited there, by the operator.
 */

const partnerId = z.string().regex(/^[\w-]{1,100}$/, "is not a partner id");

function pagePath(id: string, query = ""): string {
  return `/operator/partners/${encodeURIComponent(id)}${query}`;
}

async function db() {
  return (await getAppContext()).db;
}

// ---------------------------------------------------------------------------------------------
// Name, origins, default return URL

const settingsSchema = z.object({
  partnerId,
  // Longer than allowed is said on the field, not refused as a malformed form.
  name: z.string().max(400).default(""),
  allowedOrigins: z.string().max(20_000).default(""),
  defaultReturnUrl: z
    .string()
    .max(RETURN_URL_MAX_LENGTH * 2)
    .default(""),
});

const settingsValidated = operatorAction(settingsSchema, async (operator, input) =>
  updatePartnerSettings(await db(), input.partnerId, input, operator.actor, getEnv().financing.environment),
);

const settingsLimits = { name: 400, allowedOrigins: 20_000, defaultReturnUrl: RETURN_URL_MAX_LENGTH * 2 };

export const settingsAction = formAction<PartnerSettingsState>()(settingsValidated, {
  invalid: (issues, formData) => {
    const values = typedValues(formData, settingsLimits);
    // Only an oversized (or hand-made) post gets here: each field past its length, said on it.
    const fields = issues.map((issue) => issue.field);
    if (fields.includes("partnerId")) return { values, notFound: true };
    return {
      values,
      errors: {
        name: fields.includes("name") ? "too_long" : undefined,
        allowedOrigins: fields.includes("allowedOrigins") ? { reason: "too_many" } : undefined,
        defaultReturnUrl: fields.includes("defaultReturnUrl") ? "too_long" : undefined,
      },
    };
  },
  valid: (outcome, formData) => {
    if (outcome.ok) {
      refresh();
      return { saved: true };
    }
    const values = typedValues(formData, settingsLimits);
    if ("reason" in outcome) return { values, notFound: true };
    const errors: NonNullable<PartnerSettingsState["errors"]> = {};
    for (const problem of outcome.problems) {
      if (problem.field === "name") errors.name = problem.reason;
      if (problem.field === "allowedOrigins") {
        errors.allowedOrigins = { reason: problem.reason === "invalid" ? "invalid_origin" : problem.reason, line: problem.line };
      }
      if (problem.field === "defaultReturnUrl") errors.defaultReturnUrl = problem.reason === "invalid" ? "invalid_url" : problem.reason;
    }
    return { values, errors };
  },
});

// ---------------------------------------------------------------------------------------------
// Notification URL

const notificationSchema = z.object({
  partnerId,
  notificationUrl: z
    .string()
    .max(NOTIFICATION_URL_MAX_LENGTH * 2)
    .default(""),
});

const notificationValidated = operatorAction(notificationSchema, async (operator, input) =>
  setPartnerNotificationUrl(await db(), input.partnerId, input.notificationUrl, operator.actor, getEnv().financing.environment),
);

const typedUrl = (formData: FormData) => typedValues(formData, { notificationUrl: NOTIFICATION_URL_MAX_LENGTH * 2 }).notificationUrl;

export const notificationAction = formAction<PartnerNotificationState>()(notificationValidated, {
  invalid: (_issues, formData) => ({ url: typedUrl(formData), error: "invalid" }),
  valid: (outcome, formData) => {
    if (outcome.ok) {
      refresh();
      return { saved: true, url: outcome.url ?? "" };
    }
    return { url: typedUrl(formData), error: outcome.reason === "not_found" ? "not_found" : notificationUrlProblem(outcome.reason) };
  },
});

// ---------------------------------------------------------------------------------------------
// Customers' data retention

const retentionSchema = z.object({ partnerId, retentionDays: z.string().max(20).default("") });

const retentionValidated = operatorAction(retentionSchema, async (operator, input) =>
  setPartnerRetentionDays(await db(), input.partnerId, input.retentionDays, operator.actor, getEnv().customerDataRetentionMaxDays),
);

const typedDays = (formData: FormData) => typedValues(formData, { retentionDays: 20 }).retentionDays;

export const retentionAction = formAction<PartnerRetentionState>()(retentionValidated, {
  invalid: (issues, formData) => ({
    days: typedDays(formData),
    error: issues.some((issue) => issue.field === "partnerId") ? "not_found" : "invalid",
  }),
  valid: (outcome, formData) => {
    if (outcome.ok) {
      refresh();
      return { saved: true, days: String(outcome.days) };
    }
    return { days: typedDays(formData), error: outcome.reason };
  },
});

// ---------------------------------------------------------------------------------------------
// The financing API credential

const credentialSchema = z.object({
  partnerId,
  kind: z.enum(["agency", "group", "group_pending", "deployment"]),
  key: z.string().max(400).default(""),
  pending: z.string().max(4_000).default(""),
  agencyId: z
    .string()
    .regex(/^([1-9][0-9]{0,9})?$/, "is not an agency id")
    .default("")
    .transform((value) => (value === "" ? undefined : Number(value))),
});

function choiceOf(input: z.output<typeof credentialSchema>): CredentialChoice | undefined {
  // What was typed, without the spaces a paste brings along.
  const key = input.key.trim();
  switch (input.kind) {
    case "agency":
      return { kind: "agency", key };
    case "group":
      return { kind: "group", key };
    case "group_pending":
      return input.agencyId === undefined ? undefined : { kind: "group_pending", pending: input.pending, agencyId: input.agencyId };
    case "deployment":
      return { kind: "deployment", agencyId: input.agencyId };
  }
}

const credentialValidated = operatorAction(credentialSchema, async (operator, input) => {
  const choice = choiceOf(input);
  if (!choice) return { ok: false as const, reason: "invalid" as const };
  const env = getEnv();
  return setPartnerCredential(await db(), input.partnerId, choice, operator.actor, { financing: env.financing, keyring: env.SECRETS_KEYS });
});

export const credentialAction = formAction<CredentialState>()(credentialValidated, {
  invalid: () => ({ error: { reason: "invalid" } }),
  valid: (outcome) => {
    if (!outcome.ok) return { error: { reason: outcome.reason, apiReason: "apiReason" in outcome ? outcome.apiReason : undefined } };
    if (outcome.saved) {
      refresh();
      return { saved: true };
    }
    return {
      pick: {
        kind: outcome.pending ? "group_pending" : "deployment",
        pending: outcome.pending,
        agencies: outcome.agencies.map((agency) => ({ id: agency.id, label: `${agency.tradeName} (${agency.id})` })),
      },
    };
  },
});

// ---------------------------------------------------------------------------------------------
// Agencies, state: plain forms, back to the page with a notice

const agenciesSchema = z.object({ partnerId, agencies: z.string().max(2_000).default("") });

const agenciesValidated = operatorAction(agenciesSchema, async (operator, input) => {
  const ids = checkAgencyIds(input.agencies);
  if (!ids.ok) return { ok: false as const, reason: "invalid" as const };
  return setPartnerAgencies(await db(), input.partnerId, ids.value, operator.actor);
});

export async function agenciesAction(formData: FormData): Promise<void> {
  const outcome = await agenciesValidated(undefined, formData);
  const id = partnerId.safeParse(formOf(formData).get("partnerId"));
  if (!id.success) redirect("/operator/partners");
  if ("invalid" in outcome || (!outcome.ok && outcome.reason === "invalid"))
    redirect(pagePath(id.data, "?notice=agenciesInvalid#agencies"));
  redirect(pagePath(id.data, outcome.ok ? "?notice=agencies#agencies" : ""));
}

const stateSchema = z.object({ partnerId, disabled: z.enum(["true", "false"]) });

const stateValidated = operatorAction(stateSchema, async (operator, input) =>
  setPartnerDisabled(await db(), input.partnerId, input.disabled === "true", operator.actor),
);

export async function stateAction(formData: FormData): Promise<void> {
  const outcome = await stateValidated(undefined, formData);
  if ("invalid" in outcome || !outcome.ok) redirect("/operator/partners");
  const input = stateSchema.parse(Object.fromEntries(formOf(formData)));
  redirect(pagePath(input.partnerId, input.disabled === "true" ? "?notice=disabled" : "?notice=enabled"));
}

// ---------------------------------------------------------------------------------------------
// API secrets

const apiSecretValidated = operatorAction(z.object({ partnerId }).and(apiSecretIntentSchema), async (operator, input) =>
  runApiSecretIntent(await db(), input.partnerId, input, { ...operator.actor, kind: "operator" }, getEnv().financing.environment),
);

export const apiSecretAction = formAction<ApiSecretsState>()(apiSecretValidated, {
  invalid: () => apiSecretAnswer({ error: "invalid" }),
  valid: apiSecretAnswer,
});

async function apiSecretAnswer(outcome: ApiSecretOutcome | { error: "invalid" }) {
  refresh();
  return apiSecretsState(outcome, await getLocale());
}

// ---------------------------------------------------------------------------------------------
// The first administrator

const inviteSchema = z.object({ partnerId, email: z.string().max(400).default(""), name: z.string().max(400).default("") });

const inviteValidated = operatorAction(inviteSchema, async (operator, input) =>
  invitePartnerAdmin(await db(), input.partnerId, input, operator.actor),
);

const typedInvite = (formData: FormData) => typedValues(formData, { email: 400, name: 400 });

export const inviteAdminAction = formAction<InviteAdminState>()(inviteValidated, {
  invalid: (_issues, formData) => ({ values: typedInvite(formData), error: "invalid" }),
  valid: (outcome, formData) => {
    if (!outcome.ok) return { values: typedInvite(formData), error: outcome.reason };
    refresh();
    return { link: outcome.link };
  },
});
