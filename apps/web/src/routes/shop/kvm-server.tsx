export default function KvmConfiguratorPage() {
  return <div className="mx-auto max-w-7xl px-4 py-16"><h1 className="text-3xl font-bold">KvmConfiguratorPage</h1></div>;
}
