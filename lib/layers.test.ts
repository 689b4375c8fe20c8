/**
 * The layers (docs/contributors/architecture.md) are the linter's: `npm run lint` fails on a forbidden import
 * and on an import circle. Shown here with the project's own ESLint configuration, on source text
 * given a path in the folder it would live in (and, for a circle, two files written for the test).
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ESLint, type Linter } from "eslint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// The project's configuration, without the type-aware rules: they need the file in the TypeScript
// project (a fixture is not), and the layer and circle rules need no types. The circle check reads
// the files on disk, so it is off where the fixture is text only.
const withoutTypes: Linter.Config = {
  files: ["**/*.ts", "**/*.tsx"],
  languageOptions: { parserOptions: { projectService: false } },
  rules: { "@typescript-eslint/no-floating-promises": "off", "@typescript-eslint/no-misused-promises": "off" },
};
const eslint = new ESLint({
  cwd: root,
  overrideConfig: [withoutTypes, { files: ["**/*.ts", "**/*.tsx"], rules: { "import/no-cycle": "off" } }],
});
const eslintOnDisk = new ESLint({ cwd: root, overrideConfig: withoutTypes });

/** The layers as eslint.config.mjs lists them (a name, and the folders and files in it). */
async function layers(): Promise<Record<string, string[]>> {
  const config = (await import(pathToFileURL(path.join(root, "eslint.config.mjs")).href)) as { LAYERS: Record<string, string[]> };
  return config.LAYERS;
}

/** The paths (relative to the repository) listed in no layer: an entry is listed by itself or by a folder holding it. */
function unlisted(entries: string[], listed: Record<string, string[]>): string[] {
  const all = Object.values(listed).flat();
  return entries.filter((entry) => !all.some((path) => entry === path || entry.startsWith(`${path}/`)));
}

/** Every testing/ folder of the app's code (relative to the repository). */
function testingFolders(dir = "."): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const child = dir === "." ? entry.name : `${dir}/${entry.name}`;
    if (entry.name === "testing") found.push(child);
    else if (!["e2e", "scripts", "public", "docs"].includes(child)) found.push(...testingFolders(child));
  }
  return found;
}

/** The rules that failed on `code` as if it were the file at `file` (relative to the repository). */
async function failures(file: string, code: string, linter = eslint): Promise<string[]> {
  const [result] = await linter.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((message) => message.severity === 2).map((message) => `${message.ruleId}: ${message.message}`);
}

// Loading the configuration and its plugins (the TypeScript resolver among them) takes seconds,
// many on a busy machine: done once, before the tests' own timeouts start.
beforeAll(async () => {
  await Promise.all([
    eslint.lintText("export {};\n", { filePath: path.join(root, "lib/text/warm-up.ts") }),
    eslintOnDisk.calculateConfigForFile(path.join(root, "lib/text/warm-up.ts")),
  ]);
}, 180_000);

describe("the layers, enforced by the linter", () => {
  it("refuses platform code importing a domain", async () => {
    const found = await failures("lib/db/layers-fixture.ts", 'export { getSession } from "@/lib/checkout/session/sessions";\n');
    expect(found).toEqual([expect.stringMatching(/^import\/no-restricted-paths: .*Platform code imports no domain/)]);
  });

  it("refuses platform code importing a shared domain, a type included", async () => {
    const found = await failures("lib/ops/layers-fixture.ts", 'export type { FinancingClient } from "@/lib/financing/client";\n');
    expect(found).toEqual([expect.stringMatching(/^import\/no-restricted-paths: /)]);
  });

  it("refuses the checkout importing the back-office", async () => {
    const found = await failures("lib/checkout/layers-fixture.ts", 'export { authorize } from "@/lib/backoffice/operations/ownership";\n');
    expect(found).toEqual([expect.stringMatching(/^import\/no-restricted-paths: .*never import a feature domain/)]);
  });

  it("refuses lib/ importing app/", async () => {
    const found = await failures("lib/theme/layers-fixture.ts", 'export { GET } from "@/app/api/health/route";\n');
    expect(found).toContainEqual(expect.stringMatching(/^import\/no-restricted-paths: .*never import app\//));
  });

  it("refuses the sandbox importing the financing client (the contract only)", async () => {
    const found = await failures("lib/sandbox/layers-fixture.ts", 'export { createFinancingClient } from "@/lib/financing/client";\n');
    expect(found).toEqual([expect.stringMatching(/^import\/no-restricted-paths: .*the contract only/)]);
    expect(await failures("lib/sandbox/layers-fixture.ts", 'export { operationStatusSchema } from "@/lib/financing/contract";\n')).toEqual(
      [],
    );
  });

  it("lets each layer import the layers below it", async () => {
    expect(
      await failures(
        "lib/checkout/layers-fixture.ts",
        'export { getDatabase } from "@/lib/db";\nexport { isCancellable } from "@/lib/financing/contract";\n',
      ),
    ).toEqual([]);
    expect(await failures("lib/backoffice/layers-fixture.ts", 'export { getSession } from "@/lib/checkout/session/sessions";\n')).toEqual(
      [],
    );
    expect(await failures("lib/db/layers-fixture.ts", 'export { OPERATION_STATUSES } from "@/lib/vocabulary/partner-api";\n')).toEqual([]);
  });

  it("lets lib/i18n name a domain's fields by type, never import its code", async () => {
    expect(await failures("lib/i18n/layers-fixture.ts", 'export type { CustomerField } from "@/lib/checkout/session/customer";\n')).toEqual(
      [],
    );
    const found = await failures("lib/i18n/layers-fixture.ts", 'export { CUSTOMER_FIELDS } from "@/lib/checkout/session/customer";\n');
    expect(found).toEqual([expect.stringMatching(/^@typescript-eslint\/no-restricted-imports: /)]);
  });

  it("holds lib/i18n to types by a relative path and in a .tsx file too", async () => {
    const relative = await failures("lib/i18n/layers-fixture.ts", 'export { CUSTOMER_FIELDS } from "../checkout/session/customer";\n');
    expect(relative).toEqual([expect.stringMatching(/^@typescript-eslint\/no-restricted-imports: /)]);
    const tsx = await failures("lib/i18n/layers-fixture.tsx", 'export { CUSTOMER_FIELDS } from "@/lib/checkout/session/customer";\n');
    expect(tsx).toEqual([expect.stringMatching(/^@typescript-eslint\/no-restricted-imports: /)]);
    expect(await failures("lib/i18n/layers-fixture.tsx", 'export type { CustomerField } from "../checkout/session/customer";\n')).toEqual(
      [],
    );
  });
});

describe("the layers deny by default", () => {
  it("lists every entry of lib/, every testing/ folder and server.ts in a layer", async () => {
    const listed = await layers();
    // Tests of lib/'s root files sit beside them; they are test code, not a layer's.
    const libEntries = readdirSync(path.join(root, "lib"))
      .filter((name) => !/\.test\.tsx?$/.test(name))
      .map((name) => `lib/${name}`);
    expect(unlisted([...libEntries, "server.ts"], listed)).toEqual([]);
    expect(testingFolders().filter((folder) => !listed.testSupport!.includes(folder))).toEqual([]);
  });

  it("fails on an entry no layer lists", async () => {
    const listed = await layers();
    expect(unlisted(["lib/newcomer", "lib/checkout/session/sessions.ts", "lib/newcomer.ts"], listed)).toEqual([
      "lib/newcomer",
      "lib/newcomer.ts",
    ]);
    expect(testingFolders()).toContain("lib/checkout/testing");
  });
});

describe("the platform's order, enforced", () => {
  it("refuses configuration importing security code", async () => {
    const found = await failures("lib/config/layers-fixture.ts", 'export { isSealed } from "@/lib/security/secrets/secret-box";\n');
    expect(found).toEqual([expect.stringMatching(/^import\/no-restricted-paths: .*Platform sub-layers: lib\/config /)]);
  });

  it("refuses the database importing configuration's upper neighbours, and lib/http importing lib/ops or security", async () => {
    expect(await failures("lib/db/layers-fixture.ts", 'export { routeHandler } from "@/lib/http/request-scope";\n')).toEqual([
      expect.stringMatching(/^import\/no-restricted-paths: .*Platform sub-layers: lib\/db /),
    ]);
    expect(await failures("lib/http/layers-fixture.ts", 'export { inActionScope } from "@/lib/ops/action-scope";\n')).toEqual([
      expect.stringMatching(/^import\/no-restricted-paths: .*Platform sub-layers: lib\/http /),
    ]);
    expect(await failures("lib/http/layers-fixture.ts", 'export { newNonce } from "../security/headers/csp";\n')).toEqual([
      expect.stringMatching(/^import\/no-restricted-paths: .*Platform sub-layers: lib\/http /),
    ]);
  });

  it("refuses the error type and the logger importing anything above them, and lets them be imported by all", async () => {
    expect(await failures("lib/app-error.ts", 'export { isDatabaseUnavailable } from "@/lib/db/unavailable";\n')).toEqual([
      expect.stringMatching(/^import\/no-restricted-paths: .*Platform sub-layers: lib\/text, /),
    ]);
    expect(
      await failures(
        "lib/ops/layers-fixture.ts",
        'export { getEnv } from "@/lib/config/env";\nexport { AppError } from "@/lib/app-error";\n',
      ),
    ).toEqual([]);
  });

  it("refuses the vocabulary importing anything of the app", async () => {
    const found = await failures("lib/vocabulary/layers-fixture.ts", 'export { LOG_LEVELS } from "@/lib/logging/levels";\n');
    expect(found).toEqual([expect.stringMatching(/^import\/no-restricted-paths: .*The vocabulary/)]);
    expect(await failures("lib/db/layers-fixture.ts", 'export { SESSION_STATES } from "@/lib/vocabulary/session";\n')).toEqual([]);
  });
});

describe("the consoles, test support and the server entry", () => {
  it("refuses a console importing the other, by `@/` or by a relative path, from a .tsx too", async () => {
    expect(
      await failures(
        "lib/operator/layers-fixture.ts",
        'export { listPartnerNotifications } from "@/lib/backoffice/notifications/notifications";\n',
      ),
    ).toEqual([expect.stringMatching(/^import\/no-restricted-paths: .*The consoles/)]);
    expect(await failures("lib/backoffice/layers-fixture.tsx", 'export { requireOperator } from "../operator/session";\n')).toEqual([
      expect.stringMatching(/^import\/no-restricted-paths: .*The consoles/),
    ]);
    expect(await failures("lib/operator/layers-fixture.ts", 'export { staffAction } from "@/lib/backoffice/staff-action";\n')).not.toEqual(
      [],
    );
    expect(await failures("lib/operator/layers-fixture.ts", 'export { recordAudit } from "@/lib/audit/audit";\n')).toEqual([]);
  });

  it("refuses production code importing test support, and test support importing app/ or components/", async () => {
    expect(await failures("lib/checkout/layers-fixture.ts", 'export { testContext } from "../checkout/testing/context";\n')).toEqual([
      expect.stringMatching(/^import\/no-restricted-paths: .*Production code never imports test support/),
    ]);
    expect(await failures("lib/checkout/testing/layers-fixture.ts", 'export { Button } from "@/components/ui/button";\n')).toEqual([
      expect.stringMatching(/^import\/no-restricted-paths: .*Test support/),
    ]);
    // Seeding across domains is what test support is for.
    expect(await failures("lib/checkout/testing/layers-fixture.ts", 'export { seedDemo } from "@/lib/demo/seed";\n')).toEqual([]);
  });

  it("refuses a component importing lib/db", async () => {
    const found = await failures("components/checkout/layers-fixture.tsx", 'export { CUSTOMER_FIELDS } from "@/lib/db/schema";\n');
    expect(found).toEqual([expect.stringMatching(/^import\/no-restricted-paths: .*components\/ never imports lib\/db/)]);
    expect(
      await failures("components/checkout/layers-fixture.tsx", 'export { CUSTOMER_FIELDS } from "@/lib/vocabulary/customer";\n'),
    ).toEqual([]);
  });

  it("refuses lib/ importing the server entry", async () => {
    const found = await failures("lib/ops/layers-fixture.ts", 'export {} from "../../server";\n');
    expect(found).toContainEqual(expect.stringMatching(/^import\/no-restricted-paths: .*server\.ts/));
  });
});

describe("import circles, refused by the linter", () => {
  let dir: string;
  beforeAll(() => {
    // Two real files: the circle check follows imports on disk. Under a testing/ folder, which the
    // layer rules leave alone, so only the circle is reported.
    dir = mkdtempSync(path.join(root, "lib/testing/layers-circle-"));
    writeFileSync(path.join(dir, "a.ts"), 'import { b } from "./b";\nexport const a = () => b();\n');
    writeFileSync(path.join(dir, "b.ts"), 'import { a } from "./a";\nexport const b = (): number => (a ? 1 : 0);\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reports a circle of two modules", async () => {
    const file = path.relative(root, path.join(dir, "a.ts"));
    const found = await failures(file, 'import { b } from "./b";\nexport const a = () => b();\n', eslintOnDisk);
    expect(found).toEqual([expect.stringMatching(/^import\/no-cycle: /)]);
  });
});
