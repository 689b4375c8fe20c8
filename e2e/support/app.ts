import { DEMO_BLUE_THEME, DEMO_THEME } from "@/lib/theme/demo";

/*
 * The app under test and the demo accounts the sandbox seeds in it (docs/qa/README.md and
 * docs/staff/README.md): published, sandbox-only values, not secrets.
 */

export const APP_PORT = Number(process.env.E2E_PORT ?? 3100);

/**
 * Where the app says it lives (APP_URL, by default `http://localhost:$PORT`): the financing API sends
 * the customer back there after the provider, the demo shop's return URL is there, and server actions
 * only accept posts from it. Tests that browse as a customer or as staff use this origin, so cookies
 * go with them all the way; the default baseURL (127.0.0.1) is another site.
 */
export const APP_URL = `http://localhost:${APP_PORT}`;

/** The two demo partners, each with its secret for the checkout sessions API and its own theme. */
export const DEMO_PARTNERS = {
  demo: { slug: "demo", secret: "demo_partner_secret_sandbox_only", name: "Viajes Aurora (demo)", theme: DEMO_THEME },
  "demo-blue": { slug: "demo-blue", secret: "demo_blue_partner_secret_sandbox", name: "Rutas Azules (demo)", theme: DEMO_BLUE_THEME },
} as const;
export type DemoPartner = (typeof DEMO_PARTNERS)[keyof typeof DEMO_PARTNERS];

/** The demo partner's name, as its checkout header and its "Back to …" links say it. */
export const DEMO_PARTNER_NAME = DEMO_PARTNERS.demo.name;

/** The demo staff accounts' TOTP secret, published with them (docs/staff/README.md, lib/demo/seed.ts). */
export const DEMO_TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

/**
 * The published demo staff accounts of the back-office. `sessions` is for tests that change a
 * password or sign out everywhere (so they never end another test's session), `security` for the
 * other sign-in tests (apart, so that neither waits for new TOTP codes the other used up);
 * `unenrolled` has no second factor (and tests must leave it so: its enrolment, through a one-time
 * link, is tested on an app of its own).
 */
export const STAFF = {
  aurora: {
    email: "staff@viajes-aurora.example",
    password: "aurora-staff-demo",
    name: "Lucía Ortega",
    partner: "Viajes Aurora (demo)",
    totpSecret: DEMO_TOTP_SECRET,
    reuseSession: true,
  },
  // Not reused: the agency a group key's staff member switches to is kept with the session.
  group: {
    email: "staff@grupo-demo.example",
    password: "grupo-staff-demo",
    name: "Marcos Vidal",
    partner: "Grupo Demo",
    totpSecret: DEMO_TOTP_SECRET,
    reuseSession: false,
  },
  security: {
    email: "seguridad@viajes-aurora.example",
    password: "aurora-security-demo",
    name: "Ana Ruiz",
    partner: "Viajes Aurora (demo)",
    totpSecret: DEMO_TOTP_SECRET,
    reuseSession: false,
  },
  sessions: {
    email: "sesiones@viajes-aurora.example",
    password: "aurora-sessions-demo",
    name: "Diego Marín",
    partner: "Viajes Aurora (demo)",
    totpSecret: DEMO_TOTP_SECRET,
    reuseSession: false,
  },
  /** An agent: operations, payment links and cancelling; no refund, no administrator's pages. */
  agent: {
    email: "agente@viajes-aurora.example",
    password: "aurora-agent-demo",
    name: "Carmen Vega",
    partner: "Viajes Aurora (demo)",
    totpSecret: DEMO_TOTP_SECRET,
    reuseSession: false,
  },
  unenrolled: {
    email: "nuevo@viajes-aurora.example",
    password: "aurora-new-demo",
    name: "Pablo Nuevo",
    partner: "Viajes Aurora (demo)",
    totpSecret: undefined,
    reuseSession: false,
  },
} as const;
export type StaffAccount = (typeof STAFF)[keyof typeof STAFF];
