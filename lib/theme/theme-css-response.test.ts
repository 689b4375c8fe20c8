import { describe, expect, it } from "vitest";
import { DEMO_THEME } from "./demo";
import { storedTheme, themeVersion } from "./theme";
import { themeCssResponse } from "./theme-css-response";

const URL_ = "http://127.0.0.1/embed/theme.css";
const THEMED = { theme: storedTheme(DEMO_THEME) };
const find = (id: string) => Promise.resolve(id === "themed" ? THEMED : id === "plain" ? { theme: null } : undefined);
const get = (query: string) => themeCssResponse(new Request(`${URL_}?${query}`), find);

describe("the theme's CSS", () => {
  it("is cached for good at the current version, briefly at any other", async () => {
    const current = await get(`partner=themed&v=${themeVersion(DEMO_THEME)}`);
    expect(current.status).toBe(200);
    expect(current.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(current.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await current.text()).toContain(":root");
    expect((await get("partner=themed&v=old")).headers.get("cache-control")).toBe("public, max-age=60");
  });

  it("is the default look for a partner without a theme, 404 for an unknown one, 400 without a usable id", async () => {
    const plain = await get("partner=plain");
    expect([plain.status, await plain.text()]).toEqual([200, "/* the default theme */\n"]);
    expect((await get("partner=nobody")).status).toBe(404);
    expect((await get("partner=../etc")).status).toBe(400);
    expect((await get("")).status).toBe(400);
  });

  it("previews a well-formed theme, scoped to its version, and refuses one that is not", async () => {
    const query = new URLSearchParams(storedTheme(DEMO_THEME));
    query.set("preview", "1");
    const preview = await get(query.toString());
    expect(preview.status).toBe(200);
    expect(await preview.text()).toContain(`[data-theme-preview="${themeVersion(DEMO_THEME)}"]`);
    query.set("brand", "red; } body { display: none");
    const refused = await get(query.toString());
    expect([refused.status, refused.headers.get("cache-control")]).toEqual([400, "no-store"]);
  });
});
