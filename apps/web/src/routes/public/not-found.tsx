// Placeholder: replaced by the page implementation.
export function NotFoundPage() {
  return <div className="mx-auto max-w-7xl px-4 py-16"><h1 className="text-3xl font-bold">NotFoundPage</h1></div>;
}
export function ErrorPage() {
  return <div className="mx-auto max-w-7xl px-4 py-16"><h1 className="text-3xl font-bold">ErrorPage</h1></div>;
}
