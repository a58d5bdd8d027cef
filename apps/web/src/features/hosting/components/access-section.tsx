import type { HostingDetail } from '@hp/contract';
import { AccessSection, type AccessLabels } from '../../../components/sharing/access-section.tsx';
import { useHostingShares, useShareHosting, useUnshareHosting } from '../api/access.ts';
import { errorText } from './format.ts';

const labels: AccessLabels = {
  intro: 'Geteilte Benutzer können das Paket verwalten, sehen aber keine Abrechnungsdaten und können es nicht verlängern.',
  sharedNote: 'Dieses Paket wurde mit Ihnen geteilt. Freigaben verwaltet der Inhaber.',
  empty: 'Das Paket ist mit niemandem geteilt.',
  addDescription: 'Geben Sie den Benutzernamen eines Kundenkontos ein, das das Paket mitverwalten soll.',
  removeDescription: (username) => `${username} kann das Paket danach nicht mehr sehen oder verwalten.`,
  shared: (username) => `Das Paket ist jetzt mit ${username} geteilt.`,
  unshared: (username) => `Der Zugriff von ${username} wurde entfernt.`,
};

/** Sharing a package with other account holders, like servers: they operate it but see no billing. */
export function HostingAccessSection({ detail }: { detail: HostingDetail }) {
  const owner = detail.access === 'owner';
  const shares = useHostingShares(detail.id, owner);
  const share = useShareHosting(detail.id);
  const unshare = useUnshareHosting(detail.id);
  return (
    <AccessSection headingId="hosting-access-heading" labels={labels} canManage={owner}
      shares={shares.data?.items} loadError={shares.isError ? errorText(shares.error, 'Die Freigaben konnten nicht geladen werden.') : undefined}
      share={share} unshare={unshare} errorText={errorText} />
  );
}
