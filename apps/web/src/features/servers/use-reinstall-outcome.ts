import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { serverSettingsMessages } from '@hp/contract';

/**
 * Reports the end of a reinstall once, wherever it was started (quick action or Einstellungen tab), and
 * reloads the server so the new system shows. Used by the server page, which polls the status.
 */
export function useReinstallOutcome(serverId: string, status: string | undefined) {
  const previous = useRef(status);
  const client = useQueryClient();
  useEffect(() => {
    if (previous.current === 'reinstall' && status && status !== 'reinstall') {
      if (status === 'failed') toast.error(serverSettingsMessages.reinstallFailed, { duration: 7000 });
      else toast.success(serverSettingsMessages.reinstallDone, { duration: 7000 });
      void client.invalidateQueries({ queryKey: ['servers', serverId] });
    }
    previous.current = status;
  }, [status, client, serverId]);
}
