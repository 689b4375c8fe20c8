/** Words of lib/i18n/partner-console-messages.ts: the API secrets panel, which a partner's administrators see too. */

const es = {
  apiSecrets: {
    title: "Secretos de la API de sesiones de pago",
    intro:
      "El sistema del socio abre sesiones de pago con uno de estos secretos (Authorization: Bearer …). Solo se guarda su huella: cada secreto se muestra una vez, al crearlo.",
    name: "Nombre del secreto",
    nameHint: "Para reconocerlo, por ejemplo «Backend de producción». Como máximo 60 caracteres.",
    create: "Crear un secreto",
    creating: "Creando…",
    working: "Un momento…",
    none: "Todavía no hay ningún secreto.",
    caption: "Secretos, los que funcionan primero",
    columns: {
      name: "Nombre",
      prefix: "Empieza por",
      created: "Creado",
      scopes: "Puede",
      lastUsed: "Último uso",
      state: "Estado",
      actions: "Acciones",
    },
    never: "Nunca",
    scopesLegend: "Lo que podrá hacer",
    scopesHint:
      "Marca solo lo que use el sistema del socio. Reembolsar requiere el permiso de reembolsar; borrar datos de clientes, el de solicitudes de datos.",
    scopes: {
      "sessions:read": "Leer sesiones y eventos",
      "sessions:open": "Abrir sesiones",
      "sessions:cancel": "Cancelar sesiones",
      "sessions:refund": "Reembolsar sesiones",
      "sessions:erase": "Borrar datos de clientes",
      all: "Todo (secreto anterior a los permisos)",
    },
    createdBy: "por {name}",
    states: {
      active: "Activo",
      rotating: "Sustituido: funciona hasta el {until}",
      expired: "Caducado",
      revoked: "Revocado",
    },
    rotate: "Renovar",
    rotateLabel: "Renovar {name}",
    revoke: "Revocar",
    revokeLabel: "Revocar {name}",
    /** What revoking does, said before it is done (the button that revokes is under it). */
    revokeConsequence:
      "Al revocar {name}, toda llamada hecha con él responde 401 al momento: el sistema que lo usa necesitará otro secreto. No se puede deshacer.",
    revokeConfirm: "Revocar ya",
    revokeConfirmLabel: "Revocar {name} ya",
    newSecretTitle: "Nuevo secreto: cópialo ahora",
    newSecretIntro: "No se volverá a mostrar. Guárdalo en la configuración del sistema del socio, nunca en el navegador.",
    rotatedNote: "El secreto anterior sigue funcionando hasta el {until}; después, solo el nuevo.",
    revoked: "Secreto revocado: ya no abre sesiones.",
    errors: {
      invalid_name: "Escribe un nombre de hasta 60 caracteres.",
      invalid_scopes: "Marca al menos una cosa que pueda hacer.",
      scope_not_allowed:
        "No puedes dar ese permiso: reembolsar requiere el permiso de reembolsar, y borrar datos de clientes el de solicitudes de datos.",
      too_many: "Ya hay 10 secretos que funcionan (también los sustituidos que aún funcionan): revoca alguno antes.",
      not_found: "Ese secreto no existe.",
      not_active: "Ese secreto ya está sustituido: renueva el nuevo, o revócalo.",
      already_revoked: "Ese secreto ya estaba revocado.",
      invalid: "Revisa el formulario.",
    },
  },
};

export type PartnerApiSecretsMessages = typeof es;

const en: PartnerApiSecretsMessages = {
  apiSecrets: {
    title: "Checkout sessions API secrets",
    intro:
      "The partner's system opens checkout sessions with one of these secrets (Authorization: Bearer …). Only a fingerprint is kept: each secret is shown once, when it is created.",
    name: "Secret's name",
    nameHint: "To recognise it, for example “Production backend”. At most 60 characters.",
    create: "Create a secret",
    creating: "Creating…",
    working: "One moment…",
    none: "There is no secret yet.",
    caption: "Secrets, working ones first",
    columns: {
      name: "Name",
      prefix: "Starts with",
      created: "Created",
      scopes: "May",
      lastUsed: "Last used",
      state: "State",
      actions: "Actions",
    },
    never: "Never",
    scopesLegend: "What it may do",
    scopesHint:
      "Tick only what the partner's system uses. Refunding needs the refund permission; erasing customers' data, the data-requests one.",
    scopes: {
      "sessions:read": "Read sessions and events",
      "sessions:open": "Open sessions",
      "sessions:cancel": "Cancel sessions",
      "sessions:refund": "Refund sessions",
      "sessions:erase": "Erase customers' data",
      all: "Everything (a secret from before scopes)",
    },
    createdBy: "by {name}",
    states: {
      active: "Active",
      rotating: "Replaced: works until {until}",
      expired: "Expired",
      revoked: "Revoked",
    },
    rotate: "Rotate",
    rotateLabel: "Rotate {name}",
    revoke: "Revoke",
    revokeLabel: "Revoke {name}",
    revokeConsequence:
      "Revoked, {name} answers every call with 401 at once: the system that uses it will need another secret. This cannot be undone.",
    revokeConfirm: "Revoke now",
    revokeConfirmLabel: "Revoke {name} now",
    newSecretTitle: "New secret: copy it now",
    newSecretIntro: "It will not be shown again. Keep it in the partner's system's configuration, never in a browser.",
    rotatedNote: "The previous secret keeps working until {until}; after that, only the new one.",
    revoked: "Secret revoked: it opens no more sessions.",
    errors: {
      invalid_name: "Enter a name of up to 60 characters.",
      invalid_scopes: "Tick at least one thing it may do.",
      scope_not_allowed: "You may not give that: refunding needs the refund permission, and erasing customers' data the data-requests one.",
      too_many: "10 secrets already work (replaced ones still working included): revoke one first.",
      not_found: "There is no such secret.",
      not_active: "That secret is already replaced: rotate the new one, or revoke it.",
      already_revoked: "That secret was already revoked.",
      invalid: "Check the form.",
    },
  },
};

export const apiSecrets = { es, en };
