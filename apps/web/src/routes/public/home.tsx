// Placeholder: replaced by the page implementation.
export function HomePage() {
  return <div className="mx-auto max-w-7xl px-4 py-16"><h1 className="text-3xl font-bold">HomePage</h1></div>;
}
