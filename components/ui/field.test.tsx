import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CheckboxField } from "./field";
import { SubmitRow } from "./submit-button";

describe("CheckboxField", () => {
  it("ties its hint to the box, so a screen reader says what ticking it allows", () => {
    const html = renderToStaticMarkup(<CheckboxField name="canRefund" id="can-refund" label="Refunds" hint="May refund" defaultChecked />);
    expect(html).toMatch(/^<div class="flex flex-col gap-1"><label class="flex min-h-11 items-center gap-3"><input type="checkbox" /);
    expect(html).toMatch(/<input [^>]*id="can-refund" aria-describedby="can-refund-hint" [^>]*name="canRefund" checked=""/);
    expect(html).toContain(
      '<span class="font-semibold">Refunds</span></label><p id="can-refund-hint" class="text-sm text-muted">May refund</p></div>',
    );
  });

  it("without a hint is the label alone, with the input's own attributes", () => {
    const html = renderToStaticMarkup(<CheckboxField name="confirm" id="confirm" label="I am sure" required />);
    expect(html).toMatch(
      /^<label class="flex min-h-11 items-center gap-3"><input [^>]*required=""[^>]*\/><span class="font-semibold">I am sure<\/span><\/label>$/,
    );
    expect(html).not.toContain("aria-describedby");
  });
});

describe("SubmitRow", () => {
  it("is the submit button in a block of its own, so the form's column does not stretch it", () => {
    const html = renderToStaticMarkup(<SubmitRow pendingLabel="Saving…">Save</SubmitRow>);
    expect(html).toMatch(/^<div><button type="submit" class="[^"]+">Save<\/button><\/div>$/);
  });
});
