import { DEFAULT_THEME, type Theme } from "./theme";

/**
 * The sandbox's demo partners' themes (seeded with them, see lib/demo/seed.ts): Viajes
 * Aurora keeps the checkout's own green; Rutas Azules is blue, squarer and in a humanist face, so
 * two partners side by side look like two brands. Logos are served from public/partners/.
 */
export const DEMO_THEME: Theme = { ...DEFAULT_THEME, logoUrl: "/partners/viajes-aurora.svg" };

export const DEMO_BLUE_THEME: Theme = {
  logoUrl: "/partners/rutas-azules.svg",
  brand: "#1d4ed8",
  brandContrast: "#ffffff",
  ink: "#0f172a",
  surface: "#ffffff",
  canvas: "#eef2f8",
  muted: "#475569",
  font: "humanist",
  radius: 4,
};
