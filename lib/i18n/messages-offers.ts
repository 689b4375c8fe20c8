/** The offers step's strings (choosing a plan), in Spanish and English; part of `MESSAGES` (./messages.ts). */

function installmentsPaid(n: number, regular: string, differing?: { first: boolean; amount: string }): string {
  if (!differing) return `${n} × ${regular}`;
  return differing.first ? `1 × ${differing.amount} + ${n - 1} × ${regular}` : `${n - 1} × ${regular} + 1 × ${differing.amount}`;
}

export const offersEs = {
  title: "Elige cómo pagar",
  intro: (cash: string) => `Precio al contado: ${cash}. Estos son los planes de pago a plazos que puedes elegir.`,
  warning: "Pedir dinero prestado cuesta dinero.",
  groupHeading: (n: number) => `${n} cuotas mensuales`,
  perMonth: "al mes",
  provider: (company: string) => `Con ${company}`,
  differentFirst: (amount: string) => `La primera cuota es de ${amount}.`,
  differentLast: (amount: string) => `La última cuota es de ${amount}.`,
  tin: "TIN",
  tae: "TAE",
  totalFinanced: "Importe financiado",
  totalInterest: "Intereses",
  costOfCredit: "Coste total del crédito (intereses y comisiones)",
  totalOwed: "Importe total adeudado",
  choose: "Elegir este plan",
  /** The button's words on a phone, where plans share its width; its accessible name stays `chooseLabel`. */
  chooseShort: "Elegir",
  /** The choose button's accessible name: its visible words, then which plan (no space before the colon). */
  chooseLabel: (n: number, company: string) => `Elegir este plan: ${n} cuotas con ${company}`,
  countsHeading: "¿En cuántas cuotas?",
  countsHint: "La cuota mensual más baja de cada plazo.",
  /** An installment count and its lowest monthly installment: "12 × 108,50 €". */
  countOption: (n: number, monthly: string) => `${n} × ${monthly}`,
  /**
   * What a plan's installments are, the one that differs included, so the sum is what is paid:
   * "1 × 236,61 € + 5 × 205,75 €" (the first differs), "6 × 205,75 €" (none does).
   */
  installmentsPaid,
  /** Under the count: that plan's installment that differs ("primera: 236,61 €"). */
  countDiffering: (first: boolean, amount: string) => `${first ? "primera" : "última"}: ${amount}`,
  comparisonCaption: (financed: string) => `Importe financiado en cada plan: ${financed}`,
  monthly: "Cuota mensual",
  firstInstallment: "Primera cuota",
  lastInstallment: "Última cuota",
  cheapest: "El más barato",
  editDetails: "Corregir mis datos",
  choosing: "Enviando…",
  refusedNotice: "La entidad no ha podido aprobar el plan que elegiste. Puedes elegir uno de estos otros planes.",
  failedNotice: "La entidad no ha podido tramitar el plan que elegiste por un error técnico. Puedes elegir uno de estos otros planes.",
  offerGoneNotice: "El plan que elegiste ya no está disponible. Elige otro.",
  unavailableNotice: "No hemos podido contactar con la entidad financiera. Inténtalo de nuevo.",
  unavailableTitle: "No podemos mostrar los planes ahora",
  unavailableBody: "El servicio de financiación no responde. Espera un momento e inténtalo de nuevo.",
  example: {
    heading: "Ejemplo representativo",
    text: (v: {
      credit: string;
      months: number;
      installments: number;
      quota: string;
      tin: string;
      tae: string;
      owed: string;
      cost: string;
      cash: string;
      company: string;
    }) =>
      `Para un crédito de ${v.credit} a ${v.months} meses, en ${v.installments} cuotas mensuales de ${v.quota}, con un TIN del ${v.tin} y una TAE del ${v.tae}, el importe total adeudado es de ${v.owed} y el coste total del crédito, de ${v.cost}. Precio al contado: ${v.cash}. Financiación ofrecida por ${v.company}.`,
    tin: "TIN",
    tae: "TAE",
    credit: "Importe del crédito",
    duration: "Duración",
    months: (n: number) => `${n} meses`,
    installments: "Cuotas",
    installmentsValue: (n: number, quota: string) => `${n} cuotas mensuales de ${quota}`,
    /** The one installment that differs, after the regular ones: "411,50 € (la primera, 442,36 €)". */
    differing: (quota: string, first: boolean, amount: string) => `${quota} (${first ? "la primera" : "la última"}, ${amount})`,
    owed: "Importe total adeudado",
    cost: "Coste total del crédito",
    cash: "Precio al contado",
    lender: "Entidad",
  },
};

export const offersEn: typeof offersEs = {
  title: "Choose how to pay",
  intro: (cash) => `Cash price: ${cash}. These are the installment plans you can choose from.`,
  warning: "Borrowing money costs money.",
  groupHeading: (n) => `${n} monthly installments`,
  perMonth: "a month",
  provider: (company) => `With ${company}`,
  differentFirst: (amount) => `The first installment is ${amount}.`,
  differentLast: (amount) => `The last installment is ${amount}.`,
  tin: "Nominal rate (TIN)",
  tae: "APR (TAE)",
  totalFinanced: "Amount financed",
  totalInterest: "Interest",
  costOfCredit: "Total cost of credit (interest and fees)",
  totalOwed: "Total amount owed",
  choose: "Choose this plan",
  chooseShort: "Choose",
  chooseLabel: (n, company) => `Choose this plan: ${n} installments with ${company}`,
  countsHeading: "How many installments?",
  countsHint: "The lowest monthly installment for each term.",
  countOption: (n, monthly) => `${n} × ${monthly}`,
  installmentsPaid,
  countDiffering: (first, amount) => `${first ? "first" : "last"}: ${amount}`,
  comparisonCaption: (financed) => `Amount financed in every plan: ${financed}`,
  monthly: "Monthly installment",
  firstInstallment: "First installment",
  lastInstallment: "Last installment",
  cheapest: "Cheapest",
  editDetails: "Correct my details",
  choosing: "Sending…",
  refusedNotice: "The provider could not approve the plan you chose. You can choose one of these other plans.",
  failedNotice: "The provider could not process the plan you chose because of a technical error. You can choose one of these other plans.",
  offerGoneNotice: "The plan you chose is no longer available. Please choose another.",
  unavailableNotice: "We could not reach the finance provider. Please try again.",
  unavailableTitle: "We cannot show the plans right now",
  unavailableBody: "The financing service is not answering. Wait a moment and try again.",
  example: {
    heading: "Representative example",
    text: (v) =>
      `For credit of ${v.credit} over ${v.months} months, in ${v.installments} monthly installments of ${v.quota}, at a nominal rate (TIN) of ${v.tin} and an APR (TAE) of ${v.tae}, the total amount owed is ${v.owed} and the total cost of credit is ${v.cost}. Cash price: ${v.cash}. Financing provided by ${v.company}.`,
    tin: "Nominal rate (TIN)",
    tae: "APR (TAE)",
    credit: "Amount of credit",
    duration: "Duration",
    months: (n) => `${n} months`,
    installments: "Installments",
    installmentsValue: (n, quota) => `${n} monthly installments of ${quota}`,
    differing: (quota, first, amount) => `${quota} (the ${first ? "first" : "last"} one ${amount})`,
    owed: "Total amount owed",
    cost: "Total cost of credit",
    cash: "Cash price",
    lender: "Provider",
  },
};
