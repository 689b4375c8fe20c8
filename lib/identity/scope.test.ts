import { describe, expect, it } from "vitest";
import { agencyScope } from "@/lib/partners/credential";
import { homeFor, isAdminPath, isOperatorPath, isReturnPath, landingPath } from "./scope";

describe("which agency staff act for", () => {
  it("an agency key: its own agency, no switcher", () => {
    expect(agencyScope({ financingApiKey: null, financingAgencyId: null }, null, undefined)).toEqual({ id: undefined, switchable: false });
    expect(agencyScope({ financingApiKey: "fk_test_sandbox_agency_201", financingAgencyId: null }, 102, 101)).toEqual({
      id: undefined,
      switchable: false,
    });
  });

  it("an agency under the deployment's group key: that agency only, never the group's others", () => {
    expect(agencyScope({ financingApiKey: null, financingAgencyId: 102 }, 101, 101)).toEqual({ id: 102, switchable: false });
    expect(agencyScope({ financingApiKey: null, financingAgencyId: null }, 102, 101)).toEqual({ id: 101, switchable: false });
  });

  it("a partner's own group key: its default agency, or the one chosen in the session", () => {
    expect(agencyScope({ financingApiKey: "fk_test_sandbox_group_1", financingAgencyId: 101 }, null, undefined)).toEqual({
      id: 101,
      switchable: true,
    });
    expect(agencyScope({ financingApiKey: "fk_test_sandbox_group_1", financingAgencyId: 101 }, 102, undefined)).toEqual({
      id: 102,
      switchable: true,
    });
  });
});

describe("where a sign-in may lead back to", () => {
  it("a back-office path only", () => {
    expect(isAdminPath("/admin")).toBe(true);
    expect(isAdminPath("/admin/operations?status=CONFIRMED&page=2")).toBe(true);
    expect(isAdminPath("/admin?x=1")).toBe(true);
    for (const value of [
      "/",
      "/checkout/cs_x",
      "//evil.example/admin",
      "https://evil.example/admin",
      "/administrator",
      "/admin/login",
      "/admin/login?next=/admin",
      undefined,
      42,
      "/admin/" + "x".repeat(2000),
    ]) {
      expect(isAdminPath(value), String(value)).toBe(false);
    }
  });

  it("refuses what no Location header can carry: CR, LF, controls and characters above U+00FF", () => {
    for (const value of [
      "/admin/operations\r\nSet-Cookie: x=1",
      "/admin/\n",
      "/admin/\u0000",
      "/admin/opera\u0100tions",
      "/admin/😀",
      "/admin/é",
    ]) {
      expect(isAdminPath(value), JSON.stringify(value)).toBe(false);
    }
    expect(isAdminPath("/admin/operations?q=%C3%A9")).toBe(true);
  });
});

describe("which area a sign-in lands in", () => {
  it("an operator's console path is a return path, never a back-office one", () => {
    expect(isOperatorPath("/operator")).toBe(true);
    expect(isOperatorPath("/operator/partners?x=1")).toBe(true);
    expect(isOperatorPath("/operators")).toBe(false);
    expect(isOperatorPath("//evil.example/operator")).toBe(false);
    expect(isAdminPath("/operator")).toBe(false);
    expect(isReturnPath("/operator/partners")).toBe(true);
    expect(isReturnPath("/admin/operations")).toBe(true);
    expect(isReturnPath("/checkout/x")).toBe(false);
  });

  it("each role lands in its own area, whatever it was asked to go back to", () => {
    expect(landingPath("operator", "/operator/partners")).toBe("/operator/partners");
    expect(landingPath("operator", "/admin/operations")).toBe("/operator");
    expect(landingPath("operator", undefined)).toBe("/operator");
    expect(landingPath("agent", "/operator/partners")).toBe("/admin");
    expect(landingPath("admin", "/admin/staff")).toBe("/admin/staff");
    expect(landingPath("agent", "https://evil.example/admin")).toBe("/admin");
    expect(homeFor("admin")).toBe("/admin");
  });
});
