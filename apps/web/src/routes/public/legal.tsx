// Placeholder: replaced by the page implementation.
export function ImpressumPage() {
  return <div className="mx-auto max-w-7xl px-4 py-16"><h1 className="text-3xl font-bold">ImpressumPage</h1></div>;
}
export function DatenschutzPage() {
  return <div className="mx-auto max-w-7xl px-4 py-16"><h1 className="text-3xl font-bold">DatenschutzPage</h1></div>;
}
export function AgbPage() {
  return <div className="mx-auto max-w-7xl px-4 py-16"><h1 className="text-3xl font-bold">AgbPage</h1></div>;
}
