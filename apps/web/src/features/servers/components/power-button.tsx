import { toast } from 'sonner';
import { Power } from 'lucide-react';
import { serverMessages } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { usePowerAction } from '../api/power.ts';

export type PowerAction = 'start' | 'stop' | 'restart';

export const stopConfirmation = {
  title: 'Server stoppen?',
  description: 'Der Server wird sofort ausgeschaltet; nicht gespeicherte Daten gehen verloren.',
  confirmLabel: 'Stoppen',
} as const;

/**
 * Runs a power action with the spec's toasts. The promise rejects when the server refuses, so a
 * confirmation dialog stays open for another try.
 */
export function usePowerRunner(server: { id: string; status: string }) {
  const power = usePowerAction();
  const run = async (action: PowerAction) => {
    if (server.status === 'maintenance') {
      toast.error(serverMessages.maintenance, { duration: 7000 });
      return;
    }
    try {
      const res = await power.mutateAsync({ id: server.id, action });
      toast.info(res.message);
    } catch (err) {
      toast.error(err instanceof ApiRequestError ? err.message : serverMessages.powerFailed, { duration: 7000 });
      throw err;
    }
  };
  return { run, pending: power.isPending };
}

/** Start, or Stop after a confirmation: stopping powers the server off at once. */
export function PowerButton({ server, running, disabled, runningVariant = 'danger', run }: {
  server: { status: string };
  running: boolean;
  disabled: boolean;
  runningVariant?: 'danger' | 'outline';
  run: (action: PowerAction) => Promise<void>;
}) {
  const label = running ? 'Stop' : 'Start';
  const button = (onClick?: () => void) => (
    <Button size="sm" variant={running ? runningVariant : 'primary'} disabled={disabled} onClick={onClick} aria-disabled={server.status === 'maintenance' || undefined}>
      <Power className="size-4" aria-hidden="true" /> {label}
    </Button>
  );
  // In maintenance the click only explains why nothing happens (spec), so there is nothing to confirm.
  if (!running || server.status === 'maintenance') return button(() => void run(running ? 'stop' : 'start').catch(() => {}));
  return (
    <ConfirmDialog
      trigger={button()}
      title={stopConfirmation.title}
      description={stopConfirmation.description}
      confirmLabel={stopConfirmation.confirmLabel}
      onConfirm={() => run('stop')}
    />
  );
}
