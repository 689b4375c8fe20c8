// The bench's baseline (scripts/bench-checkout.ts): the least an App Router page costs with this
// Next version. Plain JSX, so that Next sets up no TypeScript here.
export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
