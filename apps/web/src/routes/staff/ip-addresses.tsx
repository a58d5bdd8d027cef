import { PlaceholderPage } from '../portal/placeholder.tsx';

// Placeholder: replaced by the servers issue.
export default function IpAddressesPage() {
  return <PlaceholderPage title="IpAddresses" text="Folgt in Kürze." />;
}
