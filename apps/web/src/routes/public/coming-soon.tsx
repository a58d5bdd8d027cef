import { ArrowRight, Clock, Mail } from 'lucide-react';
import { Link } from 'react-router';
import { PageMeta } from '../../components/page-meta.tsx';
import { ButtonLink } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { paths } from '../../config/paths.ts';
import { availableProducts, findProduct, productNames, type ProductId } from '../../config/products.ts';

/** Where ordering a product that is not sold yet leads; what can be ordered instead comes from the catalogue. */
export function ComingSoonPage({ productId }: { productId: ProductId }) {
  const product = findProduct(productId);
  const available = productNames(availableProducts);
  return (
    <section className="mx-auto max-w-3xl px-4 py-16 sm:px-6 sm:py-24">
      <PageMeta title={`${product.name} – bald verfügbar`} description={`${product.name} kann derzeit noch nicht bestellt werden. ${available} ${availableProducts.length === 1 ? 'ist' : 'sind'} bereits verfügbar.`} />
      <div className="text-center">
        <span className="inline-flex size-16 items-center justify-center rounded-2xl bg-amber-50 text-amber-800">
          <Clock className="size-8" aria-hidden="true" />
        </span>
        <h1 className="mt-6 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{product.name} – bald verfügbar</h1>
        <p className="mx-auto mt-4 max-w-xl text-lg text-slate-600">
          Unser Unternehmen befindet sich noch im Aufbau. {product.name} kann deshalb derzeit noch nicht bestellt werden – wir arbeiten daran, das Angebot so bald wie möglich freizuschalten.
        </p>
        <p className="mx-auto mt-3 max-w-xl text-slate-600">{product.pitch}</p>
        <Link to={product.path} className="mt-3 inline-flex min-h-6 items-center font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900">
          Mehr über {product.name}
        </Link>
      </div>

      <Card className="mt-12 p-6 sm:p-8">
        <h2 className="text-xl font-semibold text-slate-900">Bereits verfügbar</h2>
        <p className="mt-2 text-slate-600">Diese Produkte können Sie schon heute bestellen:</p>
        <ul className="mt-6 divide-y divide-slate-200">
          {availableProducts.map((p) => (
            <li key={p.id} data-product={p.id} className="flex flex-col gap-4 py-5 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between">
              <div className="flex gap-4">
                <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                  <p.icon className="size-5" aria-hidden="true" />
                </span>
                <div>
                  <h3 className="font-semibold text-slate-900">{p.name}</h3>
                  <p className="mt-1 text-sm text-slate-600">{p.pitch}</p>
                </div>
              </div>
              <ButtonLink to={p.orderPath} variant="outline" className="shrink-0 self-start sm:self-center">
                {p.orderLabel}<ArrowRight className="size-4" aria-hidden="true" />
              </ButtonLink>
            </li>
          ))}
        </ul>
      </Card>

      <div className="mt-10 flex flex-col items-center gap-4 text-center text-slate-600 sm:flex-row sm:justify-center">
        <a href={`mailto:${__COMPANY__.email}`} className="inline-flex min-h-6 items-center gap-2 font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900">
          <Mail className="size-4" aria-hidden="true" /> Fragen? Schreiben Sie uns
        </a>
        <Link to={paths.home} className="inline-flex min-h-6 items-center font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900">Zur Startseite</Link>
      </div>
    </section>
  );
}
