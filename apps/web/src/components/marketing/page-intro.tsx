import type { ReactNode } from 'react';
import type { FeatureIcon } from './feature-card.tsx';

/** The plain header of an information page (company, data center, documentation): icon, title, lead text. */
export function PageIntro({ icon: Icon, title, children }: { icon: FeatureIcon; title: string; children: ReactNode }) {
  return (
    <section className="border-b border-slate-200 bg-white">
      <div className="mx-auto max-w-3xl px-4 py-14 text-center sm:px-6 sm:py-20">
        <span className="inline-flex size-14 items-center justify-center rounded-2xl bg-brand-50 text-brand-700">
          <Icon className="size-7" aria-hidden="true" />
        </span>
        <h1 className="mt-6 text-4xl font-bold tracking-tight text-balance text-slate-900 sm:text-5xl">{title}</h1>
        <div className="mt-4 text-lg text-slate-600">{children}</div>
      </div>
    </section>
  );
}

/** Label/value lines of facts; entries without a value are left out. */
export function FactList({ facts }: { facts: readonly { label: string; value: ReactNode }[] }) {
  return (
    <dl className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white shadow-sm">
      {facts.filter((f) => f.value !== '' && f.value !== null && f.value !== undefined).map((f) => (
        <div key={f.label} className="grid gap-1 px-5 py-4 sm:grid-cols-[14rem_1fr] sm:gap-4">
          <dt className="font-medium text-slate-900">{f.label}</dt>
          <dd className="text-slate-700">{f.value}</dd>
        </div>
      ))}
    </dl>
  );
}
