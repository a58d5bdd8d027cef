import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { customerDocumentMessages as docm, type CustomerDocument, type CustomerDocumentList, type MessageResult } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';
import { downloadFile, uploadFile } from '../../../lib/files.ts';
import { customerKeys } from './customers.ts';

const documentsUrl = (customerId: string) => `/staff/customers/${encodeURIComponent(customerId)}/documents`;
const key = (customerId: string) => ['customers', 'documents', customerId] as const;

// GET /api/staff/customers/:id/documents — "Hochgeladene Dokumente".
export const useCustomerDocuments = (customerId: string) => useQuery({
  queryKey: key(customerId),
  queryFn: ({ signal }) => api<CustomerDocumentList>(documentsUrl(customerId), { signal }),
});

/** After an upload or deletion: the list, and the overview's change log, which records both. */
function useRefresh(customerId: string) {
  const queryClient = useQueryClient();
  return () => Promise.all([
    queryClient.invalidateQueries({ queryKey: key(customerId) }),
    queryClient.invalidateQueries({ queryKey: customerKeys.detail(customerId) }),
  ]);
}

// POST /api/staff/customers/:id/documents?name=…&description=… — the raw bytes; the server decides the type.
export function useUploadCustomerDocument(customerId: string) {
  const refresh = useRefresh(customerId);
  return useMutation({
    mutationFn: ({ file, description }: { file: File; description: string }) => {
      const params = new URLSearchParams({ name: file.name });
      if (description) params.set('description', description);
      return uploadFile<CustomerDocument>(`${documentsUrl(customerId)}?${params.toString()}`, file, docm.uploadFailed);
    },
    onSettled: refresh,
  });
}

// DELETE /api/staff/customers/:id/documents/:documentId
export function useDeleteCustomerDocument(customerId: string) {
  const refresh = useRefresh(customerId);
  return useMutation({
    mutationFn: (documentId: string) => api<MessageResult>(`${documentsUrl(customerId)}/${encodeURIComponent(documentId)}`, { method: 'DELETE' }),
    onSettled: refresh,
  });
}

// GET /api/staff/customers/:id/documents/:documentId — with the bearer token, handed over as a download.
export const downloadCustomerDocument = (customerId: string, doc: CustomerDocument) =>
  downloadFile(`${documentsUrl(customerId)}/${encodeURIComponent(doc.id)}`, doc.name, docm.downloadFailed);
