/**
 * Reads an environment schema (a `z.object({...})` assigned to a module-level constant) from its
 * source file with the TypeScript compiler: each variable's name, its default, whether it may be
 * unset, what it accepts and the messages its checks give. The configuration reference is written
 * from this, so it names exactly the variables the code reads, with the code's defaults.
 *
 * The schemas are module-private (nothing else should parse the environment), so they are read as
 * source, not imported. What a chain step means is recognised by name (`positiveInt`, `envInteger`,
 * `booleanFlag`, `z.url`, `.default`, `.optional`…); an unrecognised step adds nothing, and the
 * reference then rests on the variable's written description.
 */
import { readFileSync } from "node:fs";
import ts from "typescript";

export interface EnvVariable {
  name: string;
  /** The schema's default as written for the environment (`10000`, `X-Service-API-Key`); undefined: none. */
  default: string | undefined;
  /** `.optional()`: unset is allowed and handled after parsing (the description says how). */
  optional: boolean;
  /** What a value must look like, when the schema says it plainly (`an integer from 1 to 65535`). */
  accepts: string | undefined;
  /** The checks' messages, as a bad value is refused with them (`must be an http(s) URL`). */
  refusals: string[];
}

/** One step of a method chain: `z.string()`, `.regex(re, "…")`, `positiveInt(3)`, `headerName`. */
interface Step {
  name: string;
  args: readonly ts.Expression[];
}

/** `a.b(x).c(y)` → [a, b(x), c(y)] (the chain from its start). */
function stepsOf(expression: ts.Expression): Step[] {
  if (ts.isCallExpression(expression)) {
    const callee = expression.expression;
    if (ts.isPropertyAccessExpression(callee)) {
      return [...stepsOf(callee.expression), { name: callee.name.text, args: expression.arguments }];
    }
    if (ts.isIdentifier(callee)) return [{ name: callee.text, args: expression.arguments }];
    return [];
  }
  if (ts.isPropertyAccessExpression(expression)) return [...stepsOf(expression.expression), { name: expression.name.text, args: [] }];
  if (ts.isIdentifier(expression)) return [{ name: expression.text, args: [] }];
  return [];
}

/** Top-level `const NAME = <literal>` of the file, so a default written as a constant reads as its value. */
function constantsOf(source: ts.SourceFile): Map<string, ts.Expression> {
  const constants = new Map<string, ts.Expression>();
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (ts.isIdentifier(declaration.name) && declaration.initializer) constants.set(declaration.name.text, declaration.initializer);
    }
  }
  return constants;
}

/** A literal's value as an environment variable would hold it; undefined when it is not a plain literal. */
function literalText(expression: ts.Expression | undefined, constants: Map<string, ts.Expression>, depth = 0): string | undefined {
  if (!expression || depth > 3) return undefined;
  if (ts.isNumericLiteral(expression)) return String(Number(expression.text.replaceAll("_", "")));
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) return expression.text;
  if (expression.kind === ts.SyntaxKind.TrueKeyword) return "true";
  if (expression.kind === ts.SyntaxKind.FalseKeyword) return "false";
  if (ts.isPropertyAccessExpression(expression) && expression.name.text === "MAX_SAFE_INTEGER") return String(Number.MAX_SAFE_INTEGER);
  if (ts.isIdentifier(expression)) return literalText(constants.get(expression.text), constants, depth + 1);
  return undefined;
}

/** `{ min: 0, max: 10, … }` → its literal properties. */
function objectLiterals(expression: ts.Expression | undefined, constants: Map<string, ts.Expression>): Map<string, string> {
  const values = new Map<string, string>();
  if (!expression || !ts.isObjectLiteralExpression(expression)) return values;
  for (const property of expression.properties) {
    if (!ts.isPropertyAssignment(property)) continue;
    const key = property.name.getText();
    const value = literalText(property.initializer, constants);
    if (value !== undefined) values.set(key, value);
  }
  return values;
}

const range = (min: string | undefined, max: string | undefined) =>
  `an integer${min !== undefined ? ` from ${min}` : ""}${max !== undefined ? ` to ${max}` : ""}, in digits`;

/** What the first step of a variable's chain accepts (the helpers of lib/config/env.ts and lib/sandbox/config.ts, and zod's own). */
function acceptsOf(step: Step | undefined, next: Step | undefined, constants: Map<string, ts.Expression>): string | undefined {
  if (!step) return undefined;
  switch (step.name) {
    case "positiveInt":
      return range("1", literalText(step.args[0], constants));
    case "envInteger": {
      const bounds = objectLiterals(step.args[0], constants);
      return range(bounds.get("min"), bounds.get("max"));
    }
    case "booleanFlag":
      return "`true` or `false` (also `1`/`0`, `yes`/`no`)";
    case "headerName":
      return "an HTTP header name";
    case "z":
      return next ? acceptsOf(next, undefined, constants) : undefined;
    case "url":
      return "a URL";
    case "email":
      return "an e-mail address";
    case "enum": {
      const list = step.args[0];
      if (list && ts.isArrayLiteralExpression(list)) {
        const values = list.elements.map((element) => literalText(element, constants));
        if (values.every((value) => value !== undefined)) return `one of ${values.map((value) => `\`${value}\``).join(", ")}`;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/** The plain-string messages of a chain's checks: `.regex(re, "…")`, `.refine(fn, "…")`, `{ error: "…" }`. */
function refusalsOf(steps: readonly Step[], constants: Map<string, ts.Expression>): string[] {
  const messages: string[] = [];
  for (const step of steps) {
    if (step.name === "default") continue;
    for (const arg of step.args) {
      const text =
        ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg) ? arg.text : objectLiterals(arg, constants).get("error");
      if (text !== undefined && /^must\b/.test(text)) messages.push(text);
    }
  }
  return [...new Set(messages)];
}

/** The variables of the `z.object({...})` assigned to `constant` in `file`, in the schema's order. */
export function readEnvSchema(file: string, constant: string): EnvVariable[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const constants = constantsOf(source);
  const initializer = constants.get(constant);
  if (!initializer || !ts.isCallExpression(initializer) || initializer.expression.getText() !== "z.object") {
    throw new Error(`${file}: no \`const ${constant} = z.object({...})\` found`);
  }
  const shape = initializer.arguments[0];
  if (!shape || !ts.isObjectLiteralExpression(shape)) throw new Error(`${file}: ${constant}'s z.object has no object literal`);

  return shape.properties.map((property) => {
    if (!ts.isPropertyAssignment(property)) throw new Error(`${file}: ${constant} has a property that is not \`NAME: schema\``);
    const name = property.name.getText().replace(/^["']|["']$/g, "");
    const steps = stepsOf(property.initializer);
    const last = steps.at(-1);
    const defaultStep = steps.findLast((step) => step.name === "default");
    return {
      name,
      default: defaultStep ? (literalText(defaultStep.args[0], constants) ?? defaultStep.args[0]?.getText()) : undefined,
      optional: last?.name === "optional",
      accepts: acceptsOf(steps[0], steps[1], constants),
      refusals: refusalsOf(steps, constants),
    };
  });
}
