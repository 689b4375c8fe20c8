/**
 * What each variable of the sandbox's environment schema (lib/sandbox/config.ts) is for, for the
 * operator of a test or QA deployment. Joined to the schema by `npm run docs:generate` into
 * docs/operators/configuration.md; a unit test fails when a variable has no entry here.
 *
 * Markdown; links are relative to docs/operators/.
 */

export interface SandboxVariableDescription {
  description: string;
  /** What applies when unset, for a variable the schema gives no default. */
  unset?: string;
  secret?: boolean;
}

export const SANDBOX_ENV_DESCRIPTIONS: Record<string, SandboxVariableDescription> = {
  SANDBOX_QA_TOKEN: {
    secret: true,
    description:
      "The QA token of the sandbox's control API: it acts on any account. The default is published, so it is accepted only from this machine (and never with a public address): set your own on a shared deployment.",
  },
  SANDBOX_RETENTION_DAYS: { description: "Operations created longer ago than this many days are purged, with their events." },
  SANDBOX_LOCAL_MODE: {
    description:
      "`true`: webhooks may target this machine's loopback (on the paths below). `false`: only public hosts and those allowed below.",
  },
  SANDBOX_ALLOWED_TARGETS: {
    description: "Host names, IP addresses or CIDR ranges, separated by commas, that webhook deliveries may reach although private.",
  },
  SANDBOX_LOOPBACK_PATHS: {
    unset: "`/api/webhooks/financing/`",
    description: "In local mode, the paths a loopback target may start with, separated by commas; `*`: any path.",
  },
  SANDBOX_LOOPBACK_PORTS: {
    unset: "served by the app: the port it listens on (`PORT`) and its public URL's (`APP_URL`); run on its own: any port",
    description: "In local mode, the ports a loopback target may use, separated by commas; `*`: any port.",
  },
  SANDBOX_PUBLIC_ORIGIN: {
    unset: "each request's own origin",
    description: "The origin the sandbox's links (the customer's financing page, its hosted pages) are built on.",
  },
  SANDBOX_PRODUCTION_LIKE: {
    description:
      "The sandbox run on its own only: `true` stands in for the production API, taking the seeded keys in their `fk_live_` form.",
  },
  SANDBOX_TLS_CERT_FILE: {
    unset: "plain HTTP",
    description: "The sandbox run on its own only: the PEM certificate chain it serves HTTPS with.",
  },
  SANDBOX_TLS_KEY_FILE: { unset: "plain HTTP", description: "That certificate's PEM private key." },
};
