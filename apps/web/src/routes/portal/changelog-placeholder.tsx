import { useSession } from '../../lib/session.ts';
import { PlaceholderPage } from './placeholder.tsx';

export default function ChangelogPlaceholder() {
  // The portal shell pads its content itself; the public layout does not.
  const { token, claims } = useSession();
  return (
    <div className={token && claims ? undefined : 'px-4 py-12'}>
      <PlaceholderPage title="Changelog" text="Die Versionshinweise werden hier veröffentlicht, sobald der Changelog freigeschaltet ist." />
    </div>
  );
}
