import { describe, expect, it } from "vitest";
import { financingCredential } from "./credential";

const DEPLOYMENT = { apiKey: "fk_test_sandbox_agency_101", agencyId: undefined };
const GROUP_DEPLOYMENT = { apiKey: "fk_test_sandbox_group_1", agencyId: 101 };

describe("which partner API key a partner's calls use", () => {
  it("the deployment's key, with its agency, for a partner without a key of its own", () => {
    expect(financingCredential({ financingApiKey: null, financingAgencyId: null }, DEPLOYMENT)).toEqual({
      apiKey: "fk_test_sandbox_agency_101",
      agency: { id: undefined, switchable: false },
    });
    expect(financingCredential({ financingApiKey: null, financingAgencyId: 102 }, GROUP_DEPLOYMENT)).toEqual({
      apiKey: "fk_test_sandbox_group_1",
      agency: { id: 102, switchable: false },
    });
  });

  it("the partner's own agency key, with no agency, whatever the deployment's", () => {
    expect(financingCredential({ financingApiKey: "fk_test_sandbox_agency_201", financingAgencyId: null }, GROUP_DEPLOYMENT, 102)).toEqual({
      apiKey: "fk_test_sandbox_agency_201",
      agency: { id: undefined, switchable: false },
    });
  });

  it("the partner's own group key, with the agency its staff chose, else its default", () => {
    const partner = { financingApiKey: "fk_test_sandbox_group_1", financingAgencyId: 101 };
    expect(financingCredential(partner, DEPLOYMENT)).toEqual({ apiKey: "fk_test_sandbox_group_1", agency: { id: 101, switchable: true } });
    expect(financingCredential(partner, DEPLOYMENT, 102)).toEqual({
      apiKey: "fk_test_sandbox_group_1",
      agency: { id: 102, switchable: true },
    });
  });
});
