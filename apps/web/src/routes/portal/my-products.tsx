import { PageMeta } from '../../components/page-meta.tsx';
import { MyServersSection } from '../../features/servers/components/my-servers-page.tsx';
import { HostingPackagesSection } from '../../features/hosting/components/packages-section.tsx';
import { DomainsSection } from '../../features/domains/components/domains-section.tsx';
import { StorageSection } from '../../features/storage/components/storage-section.tsx';

/** /dashboard, "Meine Produkte": one section per product the customer holds (servers, web hosting, domains, cloud storage). */
export default function MyProductsPage() {
  return (
    <div className="mx-auto max-w-6xl">
      <PageMeta title="Meine Produkte" />
      <h1 className="text-2xl font-bold text-slate-900">Meine Produkte</h1>
      <div className="mt-6 space-y-10">
        <MyServersSection />
        <HostingPackagesSection />
        <DomainsSection />
        <StorageSection />
      </div>
    </div>
  );
}
