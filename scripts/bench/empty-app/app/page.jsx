// Rendered on every request, like the checkout's pages.
export const dynamic = "force-dynamic";

export default function Page() {
  return <main>Empty dynamic page</main>;
}
