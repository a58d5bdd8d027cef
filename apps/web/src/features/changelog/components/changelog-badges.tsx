import { Sparkles } from 'lucide-react';
import { changelogTypeLabel } from '@hp/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';
import { GERMAN_MONTHS } from '../../../lib/german-months.ts';

const tones: Record<string, BadgeTone> = { feature: 'info', improvement: 'success', bugfix: 'warning', security: 'danger', announcement: 'neutral' };

export const ChangelogTypeBadge = ({ type }: { type: string }) => <Badge tone={tones[type] ?? 'neutral'}>{changelogTypeLabel(type)}</Badge>;
export const VersionBadge = ({ version }: { version: string | null }) => (version ? <Badge tone="neutral" className="font-mono">{version}</Badge> : null);
export const HighlightBadge = ({ highlight }: { highlight: boolean }) =>
  (highlight ? <Badge tone="warning"><Sparkles className="size-3" aria-hidden="true" /> Highlight</Badge> : null);

/**
 * "15. März 2024": what Intl.DateTimeFormat('de-DE', { day: 'numeric', month: 'long', year: 'numeric' }) prints,
 * written out. A browser's first Intl formatter loads its locale data, and a new one per entry (toLocaleDateString)
 * made the changelog's hydration the page's longest task on a phone (issue 22; the status page's dates are
 * written out for the same reason). changelog-badges.test.ts compares it with Intl.
 */
export const formatReleaseDate = (date: string) => {
  const d = new Date(`${date}T12:00:00Z`);
  return Number.isNaN(d.getTime()) ? date : `${d.getUTCDate()}. ${GERMAN_MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
};
