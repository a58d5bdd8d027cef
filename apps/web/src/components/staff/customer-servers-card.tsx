import { Link } from 'react-router';
import { serverStatusLabels } from '@hp/contract';
import { Card } from '../ui/card.tsx';
import { paths } from '../../config/paths.ts';

export interface CustomerServerItem { id: string; name: string; status: string; ip: string | null }

/** A customer's servers for staff (customer page, supporter ticket): name links to the staff view, status and IP. */
export function CustomerServersCard({ title, servers }: { title: string; servers: CustomerServerItem[] }) {
  return (
    <Card className="p-4">
      <h2 className="font-semibold text-slate-900">{title}</h2>
      {servers.length === 0 ? <p className="mt-2 text-sm text-slate-600">Keine Server.</p> : (
        <ul className="mt-2 flex flex-col gap-1 text-sm">
          {servers.map((s) => (
            <li key={s.id} className="flex flex-wrap justify-between gap-2">
              <Link to={paths.dashboard.staffServer(s.id)} className="text-brand-700 underline">{s.name}</Link>
              <span className="text-slate-700">{serverStatusLabels[s.status] ?? s.status}{s.ip ? ` · ${s.ip}` : ''}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
