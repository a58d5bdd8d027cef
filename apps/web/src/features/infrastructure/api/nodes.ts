import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { CreateNodeInput, NodePage, NodeRow } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';
import type { ListRequest } from '../../../components/list-page/list-page.tsx';
import { infrastructureKeys, listSearch, useInfrastructureMutation } from './keys.ts';

// GET /api/admin/nodes — physical servers with their capacity, paged on the server.
export const getNodes = (request: ListRequest, signal?: AbortSignal) => api<NodePage>(`/admin/nodes?${listSearch(request)}`, { signal });
export const nodesQueryOptions = (request: ListRequest) =>
  queryOptions({ queryKey: infrastructureKeys.nodes(request), queryFn: ({ signal }) => getNodes(request, signal), placeholderData: keepPreviousData });
export const useNodes = (request: ListRequest) => useQuery(nodesQueryOptions(request));

// POST /api/admin/nodes
export const createNode = (input: CreateNodeInput) => api<NodeRow>('/admin/nodes', { method: 'POST', body: input });
export const useCreateNode = () => useInfrastructureMutation(createNode);

// DELETE /api/admin/nodes/:id
export const deleteNode = (id: number) => api<void>(`/admin/nodes/${id}`, { method: 'DELETE' });
export const useDeleteNode = () => useInfrastructureMutation(deleteNode);
