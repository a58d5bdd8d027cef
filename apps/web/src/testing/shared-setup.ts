import { afterEach, vi } from 'vitest';
import { toast } from 'sonner';

// The web project's files share one module cache (vitest.config.ts), so sonner's toast store outlives a
// file: a later file's toaster would replay toasts an earlier one left. Dismissed toasts are not replayed.
// A file spies on the toasts (vi.spyOn) instead of replacing sonner, and every spy is undone after each test,
// so no later file meets a spied module.
afterEach(() => {
  vi.restoreAllMocks();
  toast.dismiss();
});
