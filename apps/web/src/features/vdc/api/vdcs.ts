import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { VdcDetail, VdcIso, VdcList, VdcNetworkInput, VdcVm, VdcVmCreateInput, VdcVmResizeInput } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

/** While something is being set up (pool, VM, network, an image being checked) the page asks again this often. */
export const VDC_POLL_MS = 3_000;
const listKey = ['vdc', 'list'] as const;
export const vdcKey = (id: string) => ['vdc', id] as const;
const base = (id: string) => `/vdcs/${encodeURIComponent(id)}`;

/** VM states that end by themselves (the hypervisor works on the machine). */
const SETTLING_VM = new Set(['provisioning', 'install', 'reinstall', 'restart', 'starting', 'stopping']);

/** Whether the page waits for the server: the pool, a VM, the network or an uploaded image is still in progress. */
export function isVdcSettling(d: VdcDetail): boolean {
  return d.status === 'provisioning'
    || d.network.status === 'creating' || d.network.status === 'deleting'
    || d.vmList.some((vm) => SETTLING_VM.has(vm.status))
    // All bytes arrived: the server is checking the image (ISO 9660) and copying it to the hypervisor.
    || d.isos.some((iso) => iso.status === 'uploading' && iso.receivedBytes >= iso.sizeBytes);
}

// GET /api/vdcs — the customer's virtual data centers ("Meine Produkte"); polled while one is being set up.
export const useVdcList = () => useQuery({
  queryKey: listKey,
  queryFn: () => api<VdcList>('/vdcs'),
  refetchInterval: (q) => (q.state.data?.items.some((v) => v.status === 'provisioning') ? VDC_POLL_MS : false),
});

// GET /api/vdcs/:id — the pool page; polled while anything in it is in progress.
export const useVdc = (id: string | null) => useQuery({
  queryKey: vdcKey(id ?? ''),
  queryFn: () => api<VdcDetail>(base(id!)),
  enabled: id !== null,
  retry: false,
  refetchInterval: (q) => (q.state.data && isVdcSettling(q.state.data) ? VDC_POLL_MS : false),
  refetchIntervalInBackground: false,
});

/** A mutation of the pool page that refreshes the page (and the list) when it settles. */
function useVdcMutation<I, O>(id: string, request: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSettled: () => Promise.all([
      client.invalidateQueries({ queryKey: vdcKey(id), exact: true }),
      client.invalidateQueries({ queryKey: listKey, exact: true }),
    ]),
  });
}

// POST /api/vdcs/:id/vms — "VM erstellen" within what the pool has free.
export const useCreateVm = (id: string) => useVdcMutation(id, (input: VdcVmCreateInput) => api<VdcVm>(`${base(id)}/vms`, { body: input }));

// PATCH /api/vdcs/:id/vms/:vmId — resize within the pool.
export const useResizeVm = (id: string) => useVdcMutation(id, ({ vmId, ...input }: VdcVmResizeInput & { vmId: string }) =>
  api<VdcVm>(`${base(id)}/vms/${encodeURIComponent(vmId)}`, { method: 'PATCH', body: input }));

// DELETE /api/vdcs/:id/vms/:vmId — frees the VM's resources and addresses.
export const useDeleteVm = (id: string) => useVdcMutation(id, (vmId: string) => api<null>(`${base(id)}/vms/${encodeURIComponent(vmId)}`, { method: 'DELETE' }));

// PUT /api/vdcs/:id/ips/:ipId — give a public IPv4 of the pool to a VM, or take it back (null).
export const useAssignIp = (id: string) => useVdcMutation(id, ({ ipId, serverId }: { ipId: number; serverId: string | null }) =>
  api<unknown>(`${base(id)}/ips/${ipId}`, { method: 'PUT', body: { serverId } }));

// PUT /api/vdcs/:id/network — the private network's range.
export const useSetNetwork = (id: string) => useVdcMutation(id, (input: VdcNetworkInput) => api<unknown>(`${base(id)}/network`, { method: 'PUT', body: input }));

// PUT /api/vdcs/:id/vms/:vmId/network — a VM joins or leaves the private network.
export const useJoinNetwork = (id: string) => useVdcMutation(id, ({ vmId, join }: { vmId: string; join: boolean }) =>
  api<unknown>(`${base(id)}/vms/${encodeURIComponent(vmId)}/network`, { method: 'PUT', body: { join } }));

// PUT /api/vdcs/:id/vms/:vmId/iso — put an image into the VM's drive and boot from it, or empty the drive (null).
export const useAttachIso = (id: string) => useVdcMutation(id, ({ vmId, isoId }: { vmId: string; isoId: string | null }) =>
  api<unknown>(`${base(id)}/vms/${encodeURIComponent(vmId)}/iso`, { method: 'PUT', body: { isoId } }));

// DELETE /api/vdcs/:id/isos/:isoId — refused while a VM has it in its drive.
export const useDeleteIso = (id: string) => useVdcMutation(id, (isoId: string) => api<null>(`${base(id)}/isos/${encodeURIComponent(isoId)}`, { method: 'DELETE' }));

// POST /api/vdcs/:id/isos — announces an upload (name and size, checked against the library's quota).
export const createIso = (id: string, input: { name: string; sizeBytes: number }) => api<VdcIso>(`${base(id)}/isos`, { body: input });
