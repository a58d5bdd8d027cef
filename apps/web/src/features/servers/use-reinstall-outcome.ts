import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { serverSettingsMessages } from '@hp/contract';

/**
 * Reports the end of a reinstall once, wherever it was started (quick action or Einstellungen tab), and
 * reloads the server so the new system shows. Used by the server page, which polls the status.
 * A backup restore shows the same server status; its end is reported by the Backups tab ("Das Backup
 * wurde wiederhergestellt."), so here it only reloads the server: a "neu installiert" beside it made
 * customers think their data was gone (issue 21).
 */
export function useReinstallOutcome(serverId: string, status: string | undefined, taskKind?: string | null) {
  const previous = useRef(status);
  const kind = useRef<string | null | undefined>(undefined);
  const client = useQueryClient();
  useEffect(() => {
    if (status === 'reinstall' && taskKind) kind.current = taskKind;
    if (previous.current === 'reinstall' && status && status !== 'reinstall') {
      if (kind.current !== 'restore') {
        if (status === 'failed') toast.error(serverSettingsMessages.reinstallFailed, { duration: 7000 });
        else toast.success(serverSettingsMessages.reinstallDone, { duration: 7000 });
      }
      kind.current = undefined;
      void client.invalidateQueries({ queryKey: ['servers', serverId] });
    }
    previous.current = status;
  }, [status, taskKind, client, serverId]);
}
