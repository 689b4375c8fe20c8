import { describe, expect, it } from "vitest";
import { can, PERMISSIONS, type Permission } from "./permissions";

describe("who may do what", () => {
  const admin = { role: "admin", canRefund: false } as const;
  const refundingAdmin = { role: "admin", canRefund: true } as const;
  const agent = { role: "agent", canRefund: false } as const;
  const refundingAgent = { role: "agent", canRefund: true } as const;
  const operator = { role: "operator", canRefund: false } as const;
  const allowed = (user: Parameters<typeof can>[0]) => PERMISSIONS.filter((permission) => can(user, permission));

  it("an agent works on operations, payment links and cancels; nothing of an administrator's", () => {
    expect(allowed(agent)).toEqual<Permission[]>(["operations", "payment-links", "cancel"]);
  });

  it("an administrator manages staff, API secrets, settings, the theme and the audit log", () => {
    expect(allowed(admin)).toEqual<Permission[]>([
      "operations",
      "payment-links",
      "cancel",
      "manage-staff",
      "api-secrets",
      "settings",
      "theme",
      "audit",
    ]);
  });

  it("refunding is the granted permission, for agents and administrators alike, never the role", () => {
    expect(can(admin, "refund")).toBe(false);
    expect(can(refundingAdmin, "refund")).toBe(true);
    expect(can(agent, "refund")).toBe(false);
    expect(can(refundingAgent, "refund")).toBe(true);
    expect(can(refundingAgent, "manage-staff")).toBe(false);
  });

  it("answering data requests is granted, and only to administrators: an agent never holds it", () => {
    expect(can(admin, "data-requests")).toBe(false);
    expect(can({ ...admin, canDataRequests: true }, "data-requests")).toBe(true);
    // Even with the flag set by hand (the database refuses it).
    expect(can({ ...refundingAgent, canDataRequests: true }, "data-requests")).toBe(false);
    expect(can({ role: "operator", canRefund: false, canDataRequests: true }, "data-requests")).toBe(false);
  });

  it("an operator holds none of a partner's permissions", () => {
    expect(allowed(operator)).toEqual([]);
    // Even with the flag set by hand (the database refuses it).
    expect(can({ role: "operator", canRefund: true }, "refund")).toBe(false);
  });
});
