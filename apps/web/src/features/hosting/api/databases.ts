import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CreateDatabaseInput, CreateDatabaseUserInput, HostingDatabases, HostingPasswordInput } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';
import { type HostingMessage, useHostingMutation } from './hosting.ts';

const key = (id: string) => ['hosting', id, 'databases'] as const;

// GET /api/hosting/:id/databases
export const getHostingDatabases = (id: string) => api<HostingDatabases>(`/hosting/${id}/databases`);
export const hostingDatabasesQueryOptions = (id: string) => queryOptions({ queryKey: key(id), queryFn: () => getHostingDatabases(id), retry: false });
export const useHostingDatabases = (id: string, enabled = true) => useQuery({ ...hostingDatabasesQueryOptions(id), enabled });

export type HostingDatabase = HostingDatabases['databases'][number];

// POST /api/hosting/:id/databases — the name without prefix; a user of the same name gets the password;
// answers the new database (with the prefix)
export const useCreateDatabase = (id: string) =>
  useHostingMutation(id, (input: CreateDatabaseInput) => api<HostingDatabase>(`/hosting/${id}/databases`, { method: 'POST', body: input }), [key(id)]);

// DELETE /api/hosting/:id/databases/:itemId
export const useDeleteDatabase = (id: string) =>
  useHostingMutation(id, (itemId: string) => api<HostingMessage | undefined>(`/hosting/${id}/databases/${encodeURIComponent(itemId)}`, { method: 'DELETE' }), [key(id)]);

// PUT /api/hosting/:id/database-users/:itemId/password
export const useSetDatabaseUserPassword = (id: string) =>
  useHostingMutation(id, ({ userId, input }: { userId: string; input: HostingPasswordInput }) =>
    api<HostingMessage>(`/hosting/${id}/database-users/${encodeURIComponent(userId)}/password`, { method: 'PUT', body: input }), [key(id)]);

// ── Database users without a database ("Benutzer erstellen") ──

export type HostingDatabaseUser = HostingDatabases['users'][number];

// POST /api/hosting/:id/database-users — the name without prefix; answers the new user (with the prefix)
export const useCreateDatabaseUser = (id: string) =>
  useHostingMutation(id, (input: CreateDatabaseUserInput) => api<HostingDatabaseUser>(`/hosting/${id}/database-users`, { method: 'POST', body: input }), [key(id)]);

// DELETE /api/hosting/:id/database-users/:itemId — refused (409) while the user owns a database
export const useDeleteDatabaseUser = (id: string) =>
  useHostingMutation(id, (userId: string) => api<HostingMessage>(`/hosting/${id}/database-users/${encodeURIComponent(userId)}`, { method: 'DELETE' }), [key(id)]);
