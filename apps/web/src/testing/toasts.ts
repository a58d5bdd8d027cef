import { beforeEach, vi } from 'vitest';
import { toast } from 'sonner';

/**
 * Silences sonner's success and error toasts in every test of the calling file and records them, so a test
 * asserts `expect(toast.success).toHaveBeenCalledWith(…)`. It spies instead of replacing the module
 * (`vi.mock`), so the file shares its worker's module cache (vitest.config.ts); the shared setup
 * (shared-setup.ts) restores every spy after each test.
 */
export function spyOnToasts() {
  beforeEach(() => {
    vi.spyOn(toast, 'success').mockImplementation(() => 0);
    vi.spyOn(toast, 'error').mockImplementation(() => 0);
  });
}
