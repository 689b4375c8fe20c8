import { describe, expect, it } from "vitest";
import { editorTokenHash, isEditor, maskedDraft, maskValue, mergeCorrection, newEditorToken } from "./customer-editor";

describe("the correction form's masks", () => {
  it("show enough to recognise a value, never the value", () => {
    expect(maskValue("documentId", "12345678Z")).toBe("••••678Z");
    expect(maskValue("documentId", "X1234567L")).toBe("••••567L");
    expect(maskValue("phone", "612 345 678")).toBe("••• ••• 78");
    expect(maskValue("email", "ana.garcia@example.com")).toBe("a•••@example.com");
    expect(maskValue("firstName", "Ana")).toBe("A•••");
    expect(maskValue("address", "Calle Mayor 1")).toBe("C•••");
    expect(maskValue("postalCode", "28013")).toBe("28•••");
    // Dates: hidden whole.
    expect(maskValue("birthDate", "1990-07-04")).toBe("");
    expect(maskValue("documentValidityDate", "2030-01-01")).toBe("");
  });

  it("leave the choices as chosen and mask every typed field", () => {
    const stored = {
      firstName: "Ana",
      documentId: "12345678Z",
      birthDate: "1990-07-04",
      phone: "612345678",
      prefix: "+34",
      gender: "FEMALE",
      nationality: "ESP",
      documentType: "DNI",
    };
    const { shown, masks } = maskedDraft(stored);
    expect(shown).toEqual({ prefix: "+34", gender: "FEMALE", nationality: "ESP", documentType: "DNI" });
    expect(masks).toEqual({ firstName: "A•••", documentId: "••••678Z", birthDate: "", phone: "••• ••• 78" });
    expect(JSON.stringify({ shown, masks })).not.toMatch(/12345678|1990|612345/);
  });
});

describe("a correction over the data sent", () => {
  it("takes what was typed; a blank masked field keeps the value sent", () => {
    const stored = { firstName: "Ana", documentId: "12345678Z", gender: "FEMALE" };
    expect(mergeCorrection(stored, { firstName: "", documentId: "87654321X", gender: "MALE" })).toEqual({
      firstName: "Ana",
      documentId: "87654321X",
      gender: "MALE",
    });
  });
});

describe("the browser's token", () => {
  it("matches only the hash stored for it", () => {
    const token = newEditorToken();
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(isEditor(token, editorTokenHash(token))).toBe(true);
    expect(isEditor(newEditorToken(), editorTokenHash(token))).toBe(false);
    expect(isEditor(undefined, editorTokenHash(token))).toBe(false);
    expect(isEditor(token, null)).toBe(false);
  });
});
