import { Card } from "@/components/card";

export default function HomePage() {
  return (
    <main className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-10 sm:py-16">
      <header className="flex flex-col gap-2">
        <p className="text-sm font-semibold uppercase tracking-wide text-brand">Travel financing checkout</p>
        <h1 className="text-3xl font-bold sm:text-4xl">Pay your trip in installments</h1>
      </header>
      <p className="text-lg text-muted">
        A white-label checkout for travel agencies. The customer picks an installment plan from the
        finance providers the agency works with, signs with the provider, and the agency learns the
        outcome, without building any of it.
      </p>
      <Card id="who" title="Who it is for">
        <ul className="list-disc space-y-2 pl-5">
          <li><strong>Travellers</strong> choosing how to pay, mostly on their phones.</li>
          <li><strong>Travel agencies</strong> that embed the checkout in their own booking pages.</li>
          <li><strong>QA teams</strong> that automate the whole flow against the bundled sandbox.</li>
        </ul>
      </Card>
    </main>
  );
}
