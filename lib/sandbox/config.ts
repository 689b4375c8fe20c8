import { z } from "zod";
import { keyMatchesCertificate, PemFileError, readCertificates, readPrivateKey } from "@/lib/config/pem-files";
import { envInteger } from "@/lib/config/env-integer";
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
   * The ports a loopback target may use in local mode; undefined: any (`*`). Unset, the sandbox the
   * app serves takes the app's own ports (lib/sandbox/instance.ts) and the one run on its own any.
   */
  loopbackPorts: readonly number[] | undefined;
  /** The origin its links are built on (SANDBOX_PUBLIC_ORIGIN); undefined: each request's own. */
  publicOrigin: string | undefined;
  /**
   * Production-like (SANDBOX_PRODUCTION_LIKE, the sandbox run on its own only): it stands in for the
   * production API, taking the seeded keys in their `fk_live_` form and no `fk_test_` key.
   */
  productionLike: boolean;
  /**
   * The certificate chain and key it serves HTTPS with (SANDBOX_TLS_CERT_FILE, SANDBOX_TLS_KEY_FILE,
   * the sandbox run on its own only); undefined: plain HTTP.
   */
  tls: { cert: string; key: string } | undefined;
}

/** Where the sandbox runs: served by the app under /sandbox, or on its own (`npm run sandbox`). */
export interface SandboxConfigOptions {
  /** On its own: it has a listener of its own, so TLS and the production-like mode are its to set. */
  standalone?: boolean;
  /** Served by the app: the ports it is reached on, where loopback deliveries may go unless SANDBOX_LOOPBACK_PORTS says otherwise. */
  ownPorts?: readonly number[];
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
  SANDBOX_LOOPBACK_PORTS: z
    .string()
    .transform((text) => text.split(/[\s,]+/).filter(Boolean))
    .refine(
      (ports) =>
        ports.length > 0 && ports.every((port) => port === "*" || (/^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65_535)),
      "must be port numbers (comma-separated), or *",
    )
    .optional(),
  SANDBOX_PUBLIC_ORIGIN: z
    .string()
    .transform((text) => text.replace(/\/+$/, ""))
    .refine(isOrigin, "must be an origin like https://financing-sandbox.example:8443 (no path, query or credentials)")
    .optional(),
  SANDBOX_PRODUCTION_LIKE: booleanFlag.default(false),
  // Files, read and checked below.
  SANDBOX_TLS_CERT_FILE: z.string().optional(),
  SANDBOX_TLS_KEY_FILE: z.string().optional(),
});

/** `http(s)://host[:port]`, exactly as URL.origin writes it. */
function isOrigin(value: string): boolean {
  const url = URL.parse(value);
  return url !== null && (url.protocol === "http:" || url.protocol === "https:") && url.origin === value;
}

export class SandboxConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(`Invalid sandbox configuration:\n${problems.map((p) => `  - ${p.variable}: ${p.message}`).join("\n")}`);
    this.name = "SandboxConfigError";
  }
}

/** The settings from the environment; throws {@link SandboxConfigError} naming every bad variable. */
export function sandboxConfigFromEnv(
  source: Record<string, string | undefined> = process.env,
  options: SandboxConfigOptions = {},
): SandboxConfig {
  const standalone = options.standalone ?? false;
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
  const problems: { variable: string; message: string }[] = [];
  if (!standalone) {
    // The app serves its sandbox on its own listener, under the sandbox's keys' rules.
    const standaloneOnly = {
      SANDBOX_PRODUCTION_LIKE: parsed.data.SANDBOX_PRODUCTION_LIKE,
      SANDBOX_TLS_CERT_FILE: parsed.data.SANDBOX_TLS_CERT_FILE !== undefined,
      SANDBOX_TLS_KEY_FILE: parsed.data.SANDBOX_TLS_KEY_FILE !== undefined,
    };
    for (const [variable, set] of Object.entries(standaloneOnly)) {
      if (set)
        problems.push({ variable, message: "is for the sandbox run on its own (npm run sandbox), not the one the app serves: unset it" });
    }
  }
  const tls = standalone ? tlsOf(parsed.data.SANDBOX_TLS_CERT_FILE, parsed.data.SANDBOX_TLS_KEY_FILE, problems) : undefined;
  if (problems.length > 0) throw new SandboxConfigError(problems);
  return {
    qaToken: parsed.data.SANDBOX_QA_TOKEN,
    retentionDays: parsed.data.SANDBOX_RETENTION_DAYS,
    localMode: parsed.data.SANDBOX_LOCAL_MODE,
    allowedTargets: allowed.list,
    loopbackPaths: loopbackPathsOf(parsed.data.SANDBOX_LOOPBACK_PATHS),
    loopbackPorts: loopbackPortsOf(parsed.data.SANDBOX_LOOPBACK_PORTS, standalone ? undefined : options.ownPorts),
    publicOrigin: parsed.data.SANDBOX_PUBLIC_ORIGIN,
    productionLike: standalone && parsed.data.SANDBOX_PRODUCTION_LIKE,
    tls,
  };
}

/** Both files or neither; each read and checked, the key the certificate's. Never echoes the key. */
function tlsOf(
  certFile: string | undefined,
  keyFile: string | undefined,
  problems: { variable: string; message: string }[],
): SandboxConfig["tls"] {
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined) {
    problems.push({
      variable: certFile === undefined ? "SANDBOX_TLS_CERT_FILE" : "SANDBOX_TLS_KEY_FILE",
      message: "is required with the other TLS file: give both, the certificate (chain) and its key",
    });
    return undefined;
  }
  let certificates: string[] | undefined;
  let key: ReturnType<typeof readPrivateKey> | undefined;
  try {
    certificates = readCertificates(certFile);
  } catch (error) {
    if (!(error instanceof PemFileError)) throw error;
    problems.push({ variable: "SANDBOX_TLS_CERT_FILE", message: error.message });
  }
  try {
    key = readPrivateKey(keyFile);
  } catch (error) {
    if (!(error instanceof PemFileError)) throw error;
    problems.push({ variable: "SANDBOX_TLS_KEY_FILE", message: error.message });
  }
  if (certificates === undefined || key === undefined) return undefined;
  if (!keyMatchesCertificate(certificates, key.key)) {
    problems.push({ variable: "SANDBOX_TLS_KEY_FILE", message: `is not the key of the first certificate in ${certFile}` });
    return undefined;
  }
  return { cert: certificates.join("\n"), key: key.pem };
}

/** The listed ports (`*`: any); unset, `ownPorts` (the app's, for the sandbox it serves) or any. */
function loopbackPortsOf(ports: string[] | undefined, ownPorts: readonly number[] | undefined): readonly number[] | undefined {
  if (ports === undefined) return ownPorts;
  return ports.includes("*") ? undefined : ports.map(Number);
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
    loopbackPorts: undefined,
    publicOrigin: undefined,
    productionLike: false,
    tls: undefined,
  };
}

/** Where the app is reached: the port it listens on, and its public URL's (a proxy in front may differ). */
export function appPorts(port: number, appUrl: string): readonly number[] {
  const url = new URL(appUrl);
  const publicPort = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  return publicPort === port ? [port] : [port, publicPort];
}

/**
 * What the operator is told at start when the app serves its sandbox at a public address: its keys,
 * QA token and demo accounts are published, so anyone reaching it can use them. Undefined on this
 * machine only (a loopback APP_URL).
 */
export function publicSandboxWarning(appUrlIsLoopback: boolean, qaToken: string): string | undefined {
  if (appUrlIsLoopback) return undefined;
  const token = qaToken === DEFAULT_QA_TOKEN ? " The published QA token is refused there until SANDBOX_QA_TOKEN sets your own." : "";
  return (
    "The sandbox is served at a public address (APP_URL): its published keys and demo accounts are open to anyone who reaches it. " +
    `Use such a deployment for tests only, never with real customers' data.${token}`
  );
}

/** What the sandbox's engine and control API take from its settings, wherever it is served. */
export function engineOptionsOf(config: SandboxConfig) {
  const { qaToken, retentionDays, localMode, allowedTargets, loopbackPaths, loopbackPorts } = config;
  return { qaToken, retentionDays, localMode, allowedTargets, loopbackPaths, loopbackPorts };
}
