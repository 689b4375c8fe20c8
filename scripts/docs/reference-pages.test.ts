import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ENV_DESCRIPTIONS } from "@/lib/config/env-descriptions";
import { metrics } from "@/lib/ops/metrics";
import { SANDBOX_ENV_DESCRIPTIONS } from "@/lib/sandbox/config-descriptions";
import { readEnvSchema } from "./env-schema";
import { appVariables, configurationPage, metricsPage, pagePath, REFERENCE_PAGES, sandboxVariables } from "./reference-pages";

describe("the generated reference pages", () => {
  it.each(REFERENCE_PAGES.map((page) => [page.file, page.render] as const))(
    "%s is what the code generates (else: npm run docs:generate)",
    async (file, render) => {
      expect(readFileSync(pagePath(file), "utf8")).toBe(await render());
    },
  );

  it("list every variable of both schemas and every metric of the registry", async () => {
    const configuration = await configurationPage();
    for (const variable of [...appVariables(), ...sandboxVariables()]) expect(configuration).toContain(`### \`${variable.name}\``);
    const page = await metricsPage();
    for (const metric of metrics().registry.getMetricsAsArray())
      expect(page).toContain(`\`${(metric as unknown as { name: string }).name}\``);
  });
});

describe.each([
  { schema: "lib/config/env.ts", variables: appVariables, descriptions: ENV_DESCRIPTIONS as Record<string, { unset?: string }> },
  {
    schema: "lib/sandbox/config.ts",
    variables: sandboxVariables,
    descriptions: SANDBOX_ENV_DESCRIPTIONS as Record<string, { unset?: string }>,
  },
])("the descriptions of $schema's variables", ({ variables, descriptions }) => {
  it("cover every variable of the schema, and name no other", () => {
    const names = variables().map((variable) => variable.name);
    expect(names.length).toBeGreaterThan(5);
    expect(
      names.filter((name) => !(name in descriptions)),
      "variables without a description",
    ).toEqual([]);
    expect(
      Object.keys(descriptions).filter((name) => !names.includes(name)),
      "descriptions of no variable",
    ).toEqual([]);
  });

  it("say what applies when unset exactly where the schema has no default", () => {
    for (const variable of variables()) {
      const { unset } = descriptions[variable.name]!;
      if (variable.default !== undefined) expect(unset, `${variable.name}: the schema's default says it`).toBeUndefined();
      else expect(unset, `${variable.name}: no schema default, so the description says what applies`).toBeTruthy();
    }
  });
});

describe("readEnvSchema", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "env-schema-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads names, defaults, bounds and refusals from the schema's source, so a new variable shows (and needs a description)", () => {
    const file = path.join(dir, "env.ts");
    writeFileSync(
      file,
      `import { z } from "zod";
const DEFAULT_NAME = "demo";
const positiveInt = (max: number) => envInteger({ min: 1, max });
const rawEnvSchema = z.object({
  PORT: positiveInt(65_535).default(3000),
  NAME: z.string().regex(/^\\w+$/, "must be letters").default(DEFAULT_NAME),
  MODE: z.enum(["a", "b"], { error: "must be a or b" }).optional(),
  HOPS: envInteger({ min: 0, max: 10 }).default(0),
  NEW_VARIABLE: z.url().optional(),
});`,
    );
    const variables = readEnvSchema(file, "rawEnvSchema");
    expect(variables).toEqual([
      { name: "PORT", default: "3000", optional: false, accepts: "an integer from 1 to 65535, in digits", refusals: [] },
      { name: "NAME", default: "demo", optional: false, accepts: undefined, refusals: ["must be letters"] },
      { name: "MODE", default: undefined, optional: true, accepts: "one of `a`, `b`", refusals: ["must be a or b"] },
      { name: "HOPS", default: "0", optional: false, accepts: "an integer from 0 to 10, in digits", refusals: [] },
      { name: "NEW_VARIABLE", default: undefined, optional: true, accepts: "a URL", refusals: [] },
    ]);
    expect(variables.map((variable) => variable.name).filter((name) => !(name in ENV_DESCRIPTIONS))).toEqual([
      "NAME",
      "MODE",
      "HOPS",
      "NEW_VARIABLE",
    ]);
  });

  it("says so when the schema is not where it is looked for", () => {
    const file = path.join(dir, "other.ts");
    writeFileSync(file, "export const nothing = 1;\n");
    expect(() => readEnvSchema(file, "rawEnvSchema")).toThrow(/no `const rawEnvSchema = z.object/);
  });
});
