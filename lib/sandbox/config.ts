import { z } from "zod";
import { envInteger } from "@/lib/validation/env-integer";
import { DEFAULT_LOOPBACK_PATHS, emptyAllowList, parseAllowList, type AllowList } from "./targets";

/**
 * The sandbox's own settings (it is a separate system: it reads its variables itself, whether the
 * app serves it or `npm run sandbox` runs it alone). A bad value names the variable.
 */

/** The operator's QA token when none is set: published, like the seeded keys. */
export const DEFAULT_QA_TOKEN = "qa_sandbox_token";
export const DEFAULT_RETENTION_DAYS = 30;

export interface SandboxConfig {
  /** `Authorization: Bearer <token>` lets the control API act on any account, named in `?account=`. */
  qaToken: string;
  /** Operations created longer ago than this (wall clock) are purged, with their events. */
  retentionDays: number;
  /** Local mode (the default): webhooks may target this machine's loopback. */
  localMode: boolean;
  /** Hosts, addresses or CIDR ranges deliveries may reach although private. */
  allowedTargets: AllowList;
  /** The paths a loopback target may start with in local mode; undefined: any (`*`). */
  loopbackPaths: readonly string[] | undefined;
  /**
   * Run alone (`npm run sandbox`): the origin browsers reach it by, for the addresses it gives them
   * (SANDBOX_PUBLIC_URL); undefined: each request's own. Served by the app, APP_URL's is used.
   */
  publicOrigin: string | undefined;
}

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"], { error: "must be true or false" })
  .transform((value) => value === "true" || value === "1" || value === "yes");

const envSchema = z.object({
  SANDBOX_QA_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{16,256}$/, "must be 16 to 256 printable characters without spaces")
    .default(DEFAULT_QA_TOKEN),
  SANDBOX_RETENTION_DAYS: envInteger({ min: 1, max: 3650, minMessage: "must be at least 1", maxMessage: "must be at most 3650" }).default(
    DEFAULT_RETENTION_DAYS,
  ),
  SANDBOX_LOCAL_MODE: booleanFlag.default(true),
  SANDBOX_ALLOWED_TARGETS: z.string().default(""),
  SANDBOX_LOOPBACK_PATHS: z
    .string()
    .transform((text) => text.split(/[\s,]+/).filter(Boolean))
    .refine(
      (paths) => paths.length > 0 && paths.every((path) => path === "*" || /^\/[\x21-\x7e]*$/.test(path)),
      "must be paths starting with / (comma-separated), or *",
    )
    .optional(),
  SANDBOX_PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL, e.g. https://sandbox.example.com" })
    .refine((value) => {
      // The refinement runs after a failed URL check too.
      if (!URL.canParse(value)) return true;
      const url = new URL(value);
      return (url.pathname === "/" || url.pathname === "") && url.search === "" && url.hash === "";
    }, "must be an origin only (scheme, host and port): the sandbox's paths start with /sandbox")
    .transform((value) => new URL(value).origin)
    .optional(),
});

export class SandboxConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(`Invalid sandbox configuration:\n${problems.map((p) => `  - ${p.variable}: ${p.message}`).join("\n")}`);
    this.name = "SandboxConfigError";
  }
}

/** The settings from the environment; throws {@link SandboxConfigError} naming every bad variable. */
export function sandboxConfigFromEnv(source: Record<string, string | undefined> = process.env): SandboxConfig {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ""));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    // Never echo a value: the token is a secret.
    throw new SandboxConfigError(parsed.error.issues.map((issue) => ({ variable: issue.path.join("."), message: issue.message })));
  }
  const allowed = parseAllowList(parsed.data.SANDBOX_ALLOWED_TARGETS);
  if (!allowed.ok) {
    throw new SandboxConfigError([
      {
        variable: "SANDBOX_ALLOWED_TARGETS",
        message: `cannot read ${JSON.stringify(allowed.entry)}: use host names, IP addresses or CIDR ranges separated by commas`,
      },
    ]);
  }
  return {
    qaToken: parsed.data.SANDBOX_QA_TOKEN,
    retentionDays: parsed.data.SANDBOX_RETENTION_DAYS,
    localMode: parsed.data.SANDBOX_LOCAL_MODE,
    allowedTargets: allowed.list,
    loopbackPaths: loopbackPathsOf(parsed.data.SANDBOX_LOOPBACK_PATHS),
    publicOrigin: parsed.data.SANDBOX_PUBLIC_URL,
  };
}

function loopbackPathsOf(paths: string[] | undefined): readonly string[] | undefined {
  if (paths === undefined) return DEFAULT_LOOPBACK_PATHS;
  return paths.includes("*") ? undefined : paths;
}

export function defaultSandboxConfig(): SandboxConfig {
  return {
    qaToken: DEFAULT_QA_TOKEN,
    retentionDays: DEFAULT_RETENTION_DAYS,
    localMode: true,
    allowedTargets: emptyAllowList(),
    loopbackPaths: DEFAULT_LOOPBACK_PATHS,
    publicOrigin: undefined,
  };
}
