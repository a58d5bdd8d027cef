import { afterEach } from 'vitest';
import { toast } from 'sonner';

// The web project's files share one module cache (vitest.config.ts), so sonner's toast store outlives a
// file: a later file's toaster would replay toasts an earlier one left. Dismissed toasts are not replayed.
afterEach(() => {
  toast.dismiss();
});
