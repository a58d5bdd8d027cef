import { PlaceholderPage } from './placeholder.tsx';

// Placeholder: replaced by the servers issue.
export default function MyServersPage() {
  return <PlaceholderPage title="MyServers" text="Folgt in Kürze." />;
}
