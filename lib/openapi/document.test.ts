import { describe, expect, it } from "vitest";
import { z } from "zod";
import { generateDocument, jsonContent, routesToPaths, type Route } from "./document";
import { openApi31Problems } from "./testing/validate";

const Thing = z.object({ id: z.string().min(1), name: z.string() }).meta({ id: "Thing", description: "A thing." });
const NewThing = z.object({ name: z.string(), tags: z.array(z.string()).optional() }).meta({ id: "NewThing" });

const routes: Route[] = [
  {
    method: "get",
    path: "/things/{thingId}",
    operation: {
      operationId: "getThing",
      requestParams: { path: z.object({ thingId: z.string().meta({ param: { description: "The thing's id." } }) }) },
      responses: { "200": { description: "The thing.", content: jsonContent(Thing) } },
    },
  },
  {
    method: "post",
    path: "/things",
    operation: {
      operationId: "createThing",
      requestBody: { required: true, content: jsonContent(NewThing) },
      responses: { "201": { description: "Created.", content: jsonContent(Thing) } },
    },
  },
  {
    method: "get",
    path: "/things",
    operation: {
      operationId: "listThings",
      requestParams: { query: z.object({ limit: z.number().int().positive().optional().meta({ description: "At most this many." }) }) },
      responses: { "200": { description: "Things.", content: jsonContent(z.array(Thing)) } },
    },
  },
];

const document = () => generateDocument({ openapi: "3.1.0", info: { title: "Things", version: "1" }, paths: routesToPaths(routes) });

describe("routesToPaths", () => {
  it("groups the methods of one path", () => {
    const paths = routesToPaths(routes);
    expect(Object.keys(paths).sort()).toEqual(["/things", "/things/{thingId}"]);
    expect(Object.keys(paths["/things"]!).sort()).toEqual(["get", "post"]);
  });

  it("refuses a method given twice for one path", () => {
    expect(() => routesToPaths([routes[1]!, routes[1]!])).toThrow("POST /things is defined twice");
  });

  it("refuses a template parameter that is not declared, and a declared one that is not in the template", () => {
    const responses = { "200": { description: "ok" } };
    expect(() => routesToPaths([{ method: "get", path: "/things/{thingId}", operation: { responses } }])).toThrow(/\{thingId\}/);
    expect(() =>
      routesToPaths([
        { method: "get", path: "/things/{id}", operation: { requestParams: { path: z.object({ thingId: z.string() }) }, responses } },
      ]),
    ).toThrow(/declares \{thingId\}/);
  });
});

describe("generateDocument", () => {
  it("is valid OpenAPI 3.1", () => {
    expect(openApi31Problems(document())).toEqual([]);
  });

  it("makes schemas with an id components, responses closed and request bodies open", () => {
    const doc = document();
    expect(Object.keys(doc.components.schemas).sort()).toEqual(["NewThing", "Thing"]);
    expect(doc.components.schemas.Thing).toMatchObject({ description: "A thing.", additionalProperties: false, required: ["id", "name"] });
    // A plain z.object strips unknown keys on input, so a request may carry them.
    expect(doc.components.schemas.NewThing).not.toHaveProperty("additionalProperties");
    expect(doc.paths["/things"]?.post).toMatchObject({
      requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/NewThing" } } } },
    });
  });

  it("turns requestParams into parameters, required only where the schema is, with the description said once", () => {
    const doc = document();
    expect(doc.paths["/things/{thingId}"]?.get?.parameters).toEqual([
      { in: "path", name: "thingId", description: "The thing's id.", required: true, schema: { type: "string" } },
    ]);
    expect(doc.paths["/things"]?.get?.parameters).toEqual([
      {
        in: "query",
        name: "limit",
        description: "At most this many.",
        schema: { type: "integer", exclusiveMinimum: 0, maximum: Number.MAX_SAFE_INTEGER },
      },
    ]);
  });

  it("gives empty lists and maps where the input has none, and plain JSON", () => {
    const doc = generateDocument({ openapi: "3.1.0", info: { title: "Empty", version: "1" } });
    expect(doc).toEqual({
      openapi: "3.1.0",
      info: { title: "Empty", version: "1" },
      servers: [],
      security: [],
      tags: [],
      paths: {},
      webhooks: {},
      components: { schemas: {}, parameters: {}, headers: {}, responses: {}, securitySchemes: {} },
    });
    expect(openApi31Problems(doc)).toEqual([]);
  });
});

describe("openApi31Problems", () => {
  it("finds structural mistakes and invalid Schema Objects", () => {
    const doc = document();
    const broken = structuredClone(doc);
    (broken.paths["/things/{thingId}"]!.get!.parameters as { in: string }[])[0]!.in = "body";
    broken.components.schemas.Thing!.type = "thing";
    const problems = openApi31Problems(broken);
    expect(problems.join("\n")).toContain("#/paths/~1things~1{thingId}/get/parameters/0/in");
    expect(problems.join("\n")).toContain("#/components/schemas/Thing/type");
  });
});
