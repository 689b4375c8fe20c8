import { beforeEach, describe, expect, it, vi } from "vitest";

/**
 * The language switch as a browser posts it, with the request's cookie jar and headers stood in
 * for Next's: what cookie it sets, over https (APP_URL, or a proxy's X-Forwarded-Proto) and over
 * plain http on this machine.
 */
const request = vi.hoisted(() => ({
  appUrl: "http://localhost:3000",
  headers: new Headers(),
  set: [] as { name: string; value: string; options: Record<string, unknown> }[],
}));

vi.mock("next/headers", () => ({
  headers: () => Promise.resolve(request.headers),
  cookies: () =>
    Promise.resolve({
      set: (name: string, value: string, options: Record<string, unknown>) => request.set.push({ name, value, options }),
    }),
}));
vi.mock("@/lib/config/env", () => ({ getEnv: () => ({ APP_URL: request.appUrl }) }));

const { switchLocale } = await import("./actions");
const { LOCALE_COOKIE } = await import("./locales");

async function switchTo(locale: string): Promise<void> {
  const form = new FormData();
  form.set("locale", locale);
  form.set("returnTo", "/checkout/cs_1");
  // The action ends with Next's redirect, thrown.
  await expect(switchLocale(form)).rejects.toThrow("NEXT_REDIRECT");
}

describe("switchLocale's cookie", () => {
  beforeEach(() => {
    request.set = [];
    request.headers = new Headers();
  });

  it("is Secure when APP_URL is https", async () => {
    request.appUrl = "https://pay.agency.example";
    await switchTo("en");
    expect(request.set).toEqual([
      { name: LOCALE_COOKIE, value: "en", options: expect.objectContaining({ secure: true, httpOnly: true, sameSite: "lax", path: "/" }) },
    ]);
  });

  it("is Secure behind a proxy that says the request came over https", async () => {
    request.appUrl = "http://localhost:3000";
    request.headers = new Headers({ "x-forwarded-proto": "https" });
    await switchTo("es");
    expect(request.set[0]?.options.secure).toBe(true);
  });

  it("is not Secure on plain http on this machine, where a browser would not send it back", async () => {
    request.appUrl = "http://localhost:3000";
    await switchTo("en");
    expect(request.set).toHaveLength(1);
    expect(request.set[0]?.options.secure).toBeFalsy();
  });
});

/** Where the switch sends the browser: the location of Next's thrown redirect. */
async function locationAfterSwitch(returnTo: string): Promise<string> {
  const form = new FormData();
  form.set("locale", "en");
  form.set("returnTo", returnTo);
  const thrown: unknown = await switchLocale(form).catch((error: unknown) => error);
  const digest = (thrown as { digest?: string }).digest ?? "";
  expect(digest).toMatch(/^NEXT_REDIRECT;/);
  return digest.split(";")[2]!;
}

describe("switchLocale's return target", () => {
  beforeEach(() => {
    request.set = [];
    request.headers = new Headers();
  });

  it("goes back to a page whose path has characters above U+00FF, percent-encoded for the Location header", async () => {
    expect(await locationAfterSwitch("/reise/\u65c5\u884c?q=\u20ac")).toBe("/reise/%E6%97%85%E8%A1%8C?q=%E2%82%AC");
    expect(request.set).toHaveLength(1);
  });

  it.each(["/checkout/cs_1\r\nSet-Cookie: x=1", "//evil.example/", "/\\evil.example", "https://evil.example/", "/\u0085"])(
    "sends %j to the home page instead",
    async (returnTo) => {
      expect(await locationAfterSwitch(returnTo)).toBe("/");
    },
  );
});
