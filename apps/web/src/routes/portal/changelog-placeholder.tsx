import { PlaceholderPage } from './placeholder.tsx';

export default function ChangelogPlaceholder() {
  return (
    <div className="px-4 py-12">
      <PlaceholderPage title="Changelog" text="Die Versionshinweise werden hier veröffentlicht, sobald der Changelog freigeschaltet ist." />
    </div>
  );
}
