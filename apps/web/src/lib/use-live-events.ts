import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { startLiveEvents } from './live-events.ts';

/** One live-event stream for the signed-in tab (mounted once, in the dashboard layout). */
export function useLiveEvents() {
  const client = useQueryClient();
  useEffect(() => startLiveEvents(client), [client]);
}
