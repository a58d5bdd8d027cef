import { Sparkles } from 'lucide-react';
import { changelogTypeLabel } from '@hp/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';

const tones: Record<string, BadgeTone> = { feature: 'info', improvement: 'success', bugfix: 'warning', security: 'danger', announcement: 'neutral' };

export const ChangelogTypeBadge = ({ type }: { type: string }) => <Badge tone={tones[type] ?? 'neutral'}>{changelogTypeLabel(type)}</Badge>;
export const VersionBadge = ({ version }: { version: string | null }) => (version ? <Badge tone="neutral" className="font-mono">{version}</Badge> : null);
export const HighlightBadge = ({ highlight }: { highlight: boolean }) =>
  (highlight ? <Badge tone="warning"><Sparkles className="size-3" aria-hidden="true" /> Highlight</Badge> : null);

/** 15. März 2024 */
export const formatReleaseDate = (date: string) =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString('de-DE', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
