import { createContext, useContext, useEffect } from 'react';

export interface HeadCollector { title?: string; description?: string }
/** Filled during prerendering so the script can write <title> and the description into <head>. */
export const HeadContext = createContext<HeadCollector | null>(null);

const SITE = 'Musterhost';

export function PageMeta({ title, description }: { title: string; description?: string }) {
  const collector = useContext(HeadContext);
  const full = title === SITE ? SITE : `${title} | ${SITE}`;
  if (collector) {
    collector.title = full;
    collector.description = description;
  }
  useEffect(() => {
    document.title = full;
    if (description) document.querySelector('meta[name="description"]')?.setAttribute('content', description);
  }, [full, description]);
  return null;
}
