import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  deriveOverallStatus,
  type CreateIncidentInput,
  type CreateIncidentUpdateInput,
  type CreateMaintenanceInput,
  type CreateServiceInput,
  type StatusIncident,
  type StatusMaintenance,
  type StatusPageData,
  type StatusService,
  type UpdateMaintenanceInput,
  type UpdateServiceInput,
} from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

export const statusKeys = {
  all: ['status'] as const,
  page: ['status', 'page'] as const,
};

// GET /api/status — the public status data (services, incidents, maintenances).
export const fetchStatusPage = (signal?: AbortSignal) => api<StatusPageData>('/status', { signal, anonymous: true });
export const statusPageQueryOptions = () => queryOptions({ queryKey: statusKeys.page, queryFn: ({ signal }) => fetchStatusPage(signal) });
/** The public page refreshes it every minute. */
export const useStatusPage = (opts: { refetchInterval?: number } = {}) => useQuery({ ...statusPageQueryOptions(), ...opts });

// POST/PATCH/DELETE /api/status/services|incidents|maintenances — staff management (below).

/** Every change reloads the page data, so lists and the overall status come from the server. */
function useStatusMutation<TVariables, TResult>(mutationFn: (vars: TVariables) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: statusKeys.all }),
  });
}

// ---- services ----

export const useCreateService = () =>
  useStatusMutation((input: CreateServiceInput) => api<StatusService>('/status/services', { method: 'POST', body: input }));

/** Shows the new status at once (and the overall status recomputed from it); rolls back on failure. */
export function useUpdateService() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: UpdateServiceInput & { id: number }) => api<StatusService>(`/status/services/${id}`, { method: 'PATCH', body: input }),
    onMutate: async ({ id, ...input }) => {
      await queryClient.cancelQueries({ queryKey: statusKeys.page });
      const previous = queryClient.getQueryData<StatusPageData>(statusKeys.page);
      if (previous) {
        const services = previous.services.map((s) => (s.id === id ? { ...s, ...input } : s));
        queryClient.setQueryData<StatusPageData>(statusKeys.page, { ...previous, services, overallStatus: deriveOverallStatus(services) });
      }
      return { previous };
    },
    onError: (_err, _vars, context) => {
      if (context?.previous) queryClient.setQueryData(statusKeys.page, context.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: statusKeys.all }),
  });
}

export const useDeleteService = () =>
  useStatusMutation((id: number) => api<void>(`/status/services/${id}`, { method: 'DELETE' }));

// ---- incidents ----

export const useCreateIncident = () =>
  useStatusMutation((input: CreateIncidentInput) => api<StatusIncident>('/status/incidents', { method: 'POST', body: input }));

export const useAddIncidentUpdate = () =>
  useStatusMutation(({ incidentId, ...input }: CreateIncidentUpdateInput & { incidentId: number }) =>
    api<StatusIncident>(`/status/incidents/${incidentId}/updates`, { method: 'POST', body: input }));

export const useDeleteIncident = () =>
  useStatusMutation((id: number) => api<void>(`/status/incidents/${id}`, { method: 'DELETE' }));

// ---- maintenances ----

export const useCreateMaintenance = () =>
  useStatusMutation((input: CreateMaintenanceInput) => api<StatusMaintenance>('/status/maintenances', { method: 'POST', body: input }));

export const useUpdateMaintenance = () =>
  useStatusMutation(({ id, ...input }: UpdateMaintenanceInput & { id: number }) =>
    api<StatusMaintenance>(`/status/maintenances/${id}`, { method: 'PATCH', body: input }));

export const useDeleteMaintenance = () =>
  useStatusMutation((id: number) => api<void>(`/status/maintenances/${id}`, { method: 'DELETE' }));
