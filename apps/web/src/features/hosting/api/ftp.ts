import type { HostingPasswordInput } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';
import { type HostingMessage, useHostingMutation } from './hosting.ts';

// PUT /api/hosting/:id/panel-password
export const useSetPanelPassword = (id: string) =>
  useHostingMutation(id, (input: HostingPasswordInput) => api<HostingMessage>(`/hosting/${id}/panel-password`, { method: 'PUT', body: input }));

// PUT /api/hosting/:id/ftp-password
export const useSetFtpPassword = (id: string) =>
  useHostingMutation(id, (input: HostingPasswordInput) => api<HostingMessage>(`/hosting/${id}/ftp-password`, { method: 'PUT', body: input }));
