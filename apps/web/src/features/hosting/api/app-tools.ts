import type { AppTool, PluginStateInput } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';
import { useHostingMutation, type HostingMessage } from './hosting.ts';

// POST /api/hosting/:id/app/tools — security check, database optimisation, update of everything; runs a while (job)
export const useRunAppTool = (id: string) =>
  useHostingMutation(id, (tool: AppTool) => api<HostingMessage>(`/hosting/${id}/app/tools`, { method: 'POST', body: { tool } }));

// POST /api/hosting/:id/app/plugins/:slug/update — runs a while (state 'updating')
export const useUpdatePlugin = (id: string) =>
  useHostingMutation(id, (slug: string) => api<HostingMessage>(`/hosting/${id}/app/plugins/${encodeURIComponent(slug)}/update`, { method: 'POST' }));

// PUT /api/hosting/:id/app/plugins/:slug — activate or deactivate at once
export const useSetPluginActive = (id: string) =>
  useHostingMutation(id, ({ slug, ...body }: PluginStateInput & { slug: string }) =>
    api<HostingMessage>(`/hosting/${id}/app/plugins/${encodeURIComponent(slug)}`, { method: 'PUT', body }));

// POST /api/hosting/:id/app/themes/:slug/activate — the only active theme (Joomla: template)
export const useActivateTheme = (id: string) =>
  useHostingMutation(id, (slug: string) => api<HostingMessage>(`/hosting/${id}/app/themes/${encodeURIComponent(slug)}/activate`, { method: 'POST' }));
