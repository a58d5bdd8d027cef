import type { AddDomainInput, HostingDetail } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';
import { type HostingMessage, useHostingMutation } from './hosting.ts';

export type HostingDomain = NonNullable<HostingDetail['site']>['domains'][number];

// POST /api/hosting/:id/domains — answers the new domain
export const useAddDomain = (id: string) =>
  useHostingMutation(id, (input: AddDomainInput) => api<HostingDomain>(`/hosting/${id}/domains`, { method: 'POST', body: input }));

// DELETE /api/hosting/:id/domains/:itemId
export const useDeleteDomain = (id: string) =>
  useHostingMutation(id, (itemId: string) => api<HostingMessage | undefined>(`/hosting/${id}/domains/${encodeURIComponent(itemId)}`, { method: 'DELETE' }));

// POST /api/hosting/:id/domains/:itemId/ssl — Let's Encrypt; the domain stays 'pending' until issued
export const useRequestSsl = (id: string) =>
  useHostingMutation(id, (itemId: string) => api<HostingMessage | undefined>(`/hosting/${id}/domains/${encodeURIComponent(itemId)}/ssl`, { method: 'POST' }));
