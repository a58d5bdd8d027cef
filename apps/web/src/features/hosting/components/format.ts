import type { HostingDetail } from '@hp/contract';
import { ApiRequestError } from '../../../lib/api-client.ts';

export type HostingSite = NonNullable<HostingDetail['site']>;

/** The API's German message; the fallback only for errors without one. */
export const errorText = (err: unknown, fallback: string) => (err instanceof ApiRequestError && err.message ? err.message : fallback);

export const formatDate = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString('de-DE', { day: '2-digit', month: '2-digit', year: 'numeric' }) : '–');
export const formatDateTime = (iso: string) => new Date(iso).toLocaleString('de-DE', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/** Spec §9: MB below 1024, GB from 1024, TB from 1048576 (MB). */
export function formatMb(mb: number) {
  if (mb >= 1048576) return `${(mb / 1048576).toLocaleString('de-DE', { maximumFractionDigits: 2 })} TB`;
  if (mb >= 1024) return `${(mb / 1024).toLocaleString('de-DE', { maximumFractionDigits: 1 })} GB`;
  return `${Math.max(0, Math.round(mb)).toLocaleString('de-DE')} MB`;
}
export const formatBytes = (bytes: number) => formatMb(bytes / 1048576);

export const WEBSITE_TYPE_LABEL: Record<HostingDetail['websiteType'], string> = { standard: 'Standard-Website', wordpress: 'WordPress', joomla: 'Joomla' };
export const APP_NAME: Record<'wordpress' | 'joomla', string> = { wordpress: 'WordPress', joomla: 'Joomla' };
export const APP_STATE_LABEL: Record<'installing' | 'installed' | 'updating' | 'failed', string> = {
  installing: 'Wird installiert …', installed: 'Installiert', updating: 'Wird aktualisiert …', failed: 'Fehlgeschlagen',
};

export const siteUrl = (domain: string) => `https://${domain}`;
/** The admin area of the installed application on the primary domain. */
export const appAdminUrl = (domain: string, kind: 'wordpress' | 'joomla') => `${siteUrl(domain)}${kind === 'wordpress' ? '/wp-admin/' : '/administrator/'}`;
/**
 * Where a theme is customised: WordPress's customizer previews the given theme; Joomla edits a template
 * through its styles, whose ids only the site knows, so the link opens the site templates' list.
 */
export const appCustomizeUrl = (domain: string, kind: 'wordpress' | 'joomla', slug: string) => (kind === 'wordpress'
  ? `${siteUrl(domain)}/wp-admin/customize.php?theme=${encodeURIComponent(slug)}`
  : `${siteUrl(domain)}/administrator/index.php?option=com_templates&view=templates&client_id=0`);

export const countWithUpdates = (total: number, updates: number) =>
  `${total} installiert${updates > 0 ? `, ${updates} ${updates === 1 ? 'Update' : 'Updates'} verfügbar` : ', alle aktuell'}`;
