import { PlaceholderPage } from '../portal/placeholder.tsx';

// Placeholder: replaced by the servers issue.
export default function ServersPage() {
  return <PlaceholderPage title="Servers" text="Folgt in Kürze." />;
}
