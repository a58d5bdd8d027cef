import { TerminalSquare } from 'lucide-react';
import type { ServerDetail } from '@hp/contract';
import { Button } from '../../components/ui/button.tsx';

// Placeholder: replaced by the console implementation.
export function ConsoleButton(_props: { detail: ServerDetail; status: string }) {
  return <Button variant="outline" size="sm" disabled title="Die Konsole wird gerade freigeschaltet."><TerminalSquare className="size-4" aria-hidden="true" /> Konsole</Button>;
}
