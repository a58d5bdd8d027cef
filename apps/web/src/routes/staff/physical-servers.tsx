import { PlaceholderPage } from '../portal/placeholder.tsx';

// Placeholder: replaced by the servers issue.
export default function PhysicalServersPage() {
  return <PlaceholderPage title="PhysicalServers" text="Folgt in Kürze." />;
}
