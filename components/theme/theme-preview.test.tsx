import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DEMO_BLUE_THEME } from "@/lib/theme/demo";
import { validateTheme } from "@/lib/theme/theme";
import { previewScope } from "@/lib/theme/urls";
import { ThemePreview } from "./theme-preview";

describe("ThemePreview", () => {
  it("shows a miniature checkout scoped to the theme's stylesheet, and lists the contrast errors", () => {
    const failing = { ...DEMO_BLUE_THEME, brandContrast: "#3b82f6" };
    const result = validateTheme({ ...failing, radius: String(failing.radius) });
    const errors = result.ok ? [] : result.errors;
    expect(errors.length).toBeGreaterThan(0);

    const html = renderToStaticMarkup(<ThemePreview theme={failing} partnerName="Rutas Azules" locale="en" errors={errors} />);
    expect(html).toContain(`data-theme-preview="${previewScope(failing)}"`);
    expect(html).toContain('href="/embed/theme.css?preview=1&amp;');
    expect(html).toContain("brandContrast=%233b82f6");
    expect(html).toContain("Preview of Rutas Azules&#x27;s theme");
    expect(html).toContain('src="/partners/rutas-azules.svg"');
    expect(html).toContain("brand/brandContrast contrast");
    expect(html).not.toContain("style=");
  });
});
