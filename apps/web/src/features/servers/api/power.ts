import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PowerInput, PowerResult } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

type PowerAction = PowerInput['action'] | 'restart';

// POST /api/servers/:id/power ({ action: start|stop }) and POST /api/servers/:id/restart
export const powerServer = (id: string, action: PowerAction) =>
  action === 'restart' ? api<PowerResult>(`/servers/${id}/restart`, { method: 'POST' }) : api<PowerResult>(`/servers/${id}/power`, { body: { action } });
export function usePowerAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: PowerAction }) => powerServer(id, action),
    onSettled: () => client.invalidateQueries({ queryKey: ['servers'] }),
  });
}
