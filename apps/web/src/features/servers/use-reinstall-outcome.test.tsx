// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, renderHook } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { toast } from 'sonner';
import { spyOnToasts } from '../../testing/toasts.ts';
import { serverSettingsMessages } from '@hp/contract';
import { useReinstallOutcome } from './use-reinstall-outcome.ts';

spyOnToasts();

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
  });

  it('reports the end of a reinstall once', () => {
    const hook = track();
    hook.rerender({ status: 'reinstall', kind: 'reinstall' });
    hook.rerender({ status: 'online', kind: null });
    hook.rerender({ status: 'online', kind: null });
    expect(toast.success).toHaveBeenCalledTimes(1);
    expect(toast.success).toHaveBeenCalledWith(serverSettingsMessages.reinstallDone, expect.anything());
  });

  it('says nothing about a reinstall when a backup restore ends, also when the last poll saw no task', () => {
    const hook = track();
    hook.rerender({ status: 'reinstall', kind: 'restore' });
    hook.rerender({ status: 'reinstall', kind: null });
    hook.rerender({ status: 'online', kind: null });
    expect(toast.success).not.toHaveBeenCalled();
    expect(toast.error).not.toHaveBeenCalled();
    // A reinstall afterwards is reported again.
    hook.rerender({ status: 'reinstall', kind: 'reinstall' });
    hook.rerender({ status: 'offline', kind: null });
    expect(toast.success).toHaveBeenCalledWith(serverSettingsMessages.reinstallDone, expect.anything());
  });
});
