import { PlaceholderPage } from './placeholder.tsx';

// Placeholder: replaced by the servers issue.
export default function ServerDetailPage() {
  return <PlaceholderPage title="ServerDetail" text="Folgt in Kürze." />;
}
