import { PlaceholderPage } from '../portal/placeholder.tsx';

export default function KvmConfiguratorPage() {
  return (
    <div className="px-4 py-12">
      <PlaceholderPage title="KVM Server konfigurieren" text="Der Server-Konfigurator mit Live-Preis und Bezahlung wird gerade fertiggestellt und ist in Kürze hier verfügbar." />
    </div>
  );
}
