// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, renderHook } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { serverSettingsMessages } from '@hp/contract';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast: toasts }));

import { useReinstallOutcome } from './use-reinstall-outcome.ts';

function track() {
  const client = new QueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client }, children);
  return renderHook(({ status, kind }: { status: string; kind: string | null }) => useReinstallOutcome('s1', status, kind), {
    wrapper, initialProps: { status: 'online', kind: null as string | null },
  });
}

describe('useReinstallOutcome (issue 21: no "neu installiert" after a backup restore)', () => {
  afterEach(() => {
    cleanup();
    toasts.success.mockClear();
    toasts.error.mockClear();
  });

  it('reports the end of a reinstall once', () => {
    const hook = track();
    hook.rerender({ status: 'reinstall', kind: 'reinstall' });
    hook.rerender({ status: 'online', kind: null });
    hook.rerender({ status: 'online', kind: null });
    expect(toasts.success).toHaveBeenCalledTimes(1);
    expect(toasts.success).toHaveBeenCalledWith(serverSettingsMessages.reinstallDone, expect.anything());
  });

  it('says nothing about a reinstall when a backup restore ends, also when the last poll saw no task', () => {
    const hook = track();
    hook.rerender({ status: 'reinstall', kind: 'restore' });
    hook.rerender({ status: 'reinstall', kind: null });
    hook.rerender({ status: 'online', kind: null });
    expect(toasts.success).not.toHaveBeenCalled();
    expect(toasts.error).not.toHaveBeenCalled();
    // A reinstall afterwards is reported again.
    hook.rerender({ status: 'reinstall', kind: 'reinstall' });
    hook.rerender({ status: 'offline', kind: null });
    expect(toasts.success).toHaveBeenCalledWith(serverSettingsMessages.reinstallDone, expect.anything());
  });
});
