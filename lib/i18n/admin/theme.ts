/** The back-office's words (lib/i18n/admin-messages.ts): the brand theme page. */

const es = {
  theme: {
    title: "Tema de la marca",
    intro:
      "Así ven tus clientes el pago a plazos: tus colores, tu logo, tu tipografía. Comprobamos el contraste (WCAG AA) antes de guardar.",
    colors: {
      brand: "Color de marca",
      brandContrast: "Texto sobre el color de marca",
      ink: "Texto",
      surface: "Fondo de tarjetas",
      canvas: "Fondo de página",
      muted: "Texto secundario",
    },
    font: "Tipografía",
    radius: "Radio de las esquinas (0 a 24 px)",
    logoUrl: "Dirección del logo (https o /ruta)",
    preview: "Ver vista previa",
    save: "Guardar el tema",
    saved: "Tema guardado: el pago a plazos ya lo usa.",
    errorsTitle: "Este tema no se puede guardar",
    previewTitle: "Vista previa",
  },
};

export type ThemeMessages = typeof es;

const en: ThemeMessages = {
  theme: {
    title: "Brand theme",
    intro:
      "How your customers see the installment checkout: your colours, your logo, your font. The contrast is checked (WCAG AA) before saving.",
    colors: {
      brand: "Brand colour",
      brandContrast: "Text on the brand colour",
      ink: "Text",
      surface: "Card background",
      canvas: "Page background",
      muted: "Secondary text",
    },
    font: "Font",
    radius: "Corner radius (0 to 24 px)",
    logoUrl: "Logo address (https or /path)",
    preview: "Preview",
    save: "Save the theme",
    saved: "Theme saved: the installment checkout now uses it.",
    errorsTitle: "This theme cannot be saved",
    previewTitle: "Preview",
  },
};

export const theme = { es, en };
