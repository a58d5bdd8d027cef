// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import { toast } from 'sonner';
import { zodResolver } from '@hookform/resolvers/zod';
import { ReinstallForm, ReinstallInput } from '@hp/contract';
import { errorsWithoutField, inputResolver, reportInvalidSubmit, useSchemaForm, validationUnavailable } from './forms.ts';

// Spies on sonner's toast instead of replacing the module, so the file shares its worker's module cache
// (vitest.config.ts); src/testing/shared-setup.ts restores every spy after each test.
const toastError = vi.fn();
beforeEach(() => {
  vi.spyOn(toast, 'error').mockImplementation(toastError);
});

afterEach(() => {
  cleanup();
  toastError.mockReset();
});

const good = { password: 'Sicher!Passwort1', confirmPassword: 'Sicher!Passwort1' };

/** A form that, like the old reinstall dialog, carries a UI-only checkbox the schema does not know. */
function StrictSchemaWithUiField({ schema, onValid, showErrors }: { schema: typeof ReinstallInput | typeof ReinstallForm; onValid: () => void; showErrors?: boolean }) {
  const form = useSchemaForm<Record<string, unknown>>({
    resolver: zodResolver(schema as never),
    defaultValues: { ...good, confirmLoss: true },
  });
  const errors = form.formState.errors;
  return (
    <form onSubmit={form.handleSubmit(onValid)} noValidate>
      <input aria-label="Passwort" aria-invalid={showErrors && errors.password ? true : undefined} {...form.register('password')} />
      <input aria-label="Bestätigen" {...form.register('confirmPassword')} />
      <input type="checkbox" aria-label="Verstanden" {...form.register('confirmLoss')} />
      <button type="submit">Senden</button>
    </form>
  );
}

describe('useSchemaForm', () => {
  it('tells the user when the schema refuses a key that no field shows (the silent reinstall dialog)', async () => {
    const onValid = vi.fn();
    const view = render(<StrictSchemaWithUiField schema={ReinstallInput} onValid={onValid} />);
    fireEvent.click(view.getByText('Senden'));
    await waitFor(() => expect(toastError).toHaveBeenCalledTimes(1));
    expect(onValid).not.toHaveBeenCalled();
    expect(String(toastError.mock.calls[0]![0])).not.toBe('');
  });

  it('submits when the form schema declares the UI-only field', async () => {
    const onValid = vi.fn();
    const view = render(<StrictSchemaWithUiField schema={ReinstallForm} onValid={onValid} />);
    fireEvent.click(view.getByText('Senden'));
    await waitFor(() => expect(onValid).toHaveBeenCalledTimes(1));
    expect(toastError).not.toHaveBeenCalled();
  });

  it('reports an error of a field that renders no message, but stays quiet when the form shows its errors', async () => {
    const quiet = render(<StrictSchemaWithUiField schema={ReinstallForm} onValid={vi.fn()} />);
    fireEvent.change(quiet.getByLabelText('Passwort'), { target: { value: 'kurz' } });
    fireEvent.click(quiet.getByText('Senden'));
    await waitFor(() => expect(toastError).toHaveBeenCalledTimes(1));
    cleanup();
    toastError.mockReset();

    const shown = render(<StrictSchemaWithUiField schema={ReinstallForm} onValid={vi.fn()} showErrors />);
    fireEvent.change(shown.getByLabelText('Passwort'), { target: { value: 'kurz' } });
    fireEvent.click(shown.getByText('Senden'));
    await waitFor(() => expect(shown.getByLabelText('Passwort').getAttribute('aria-invalid')).toBe('true'));
    await new Promise((r) => setTimeout(r, 120));
    expect(toastError).not.toHaveBeenCalled();
  });
});

describe('reportInvalidSubmit', () => {
  let form: HTMLFormElement;
  afterEach(() => {
    vi.useRealTimers();
    form.remove();
  });
  const errors = { password: { type: 'too_small', message: 'Das Passwort muss zwischen 8 und 64 Zeichen lang sein.' } };
  /** A failed submit of a form on the page, whose error has a field (so the look for rendered errors runs), on fake timers. */
  const submitInvalid = (...children: HTMLElement[]) => {
    vi.useFakeTimers();
    form = document.createElement('form');
    form.append(...children);
    document.body.append(form);
    reportInvalidSubmit(errors as never, new Set(['password']), { target: form });
  };

  it('waits for the field errors of a page that stalled before React rendered them, then stays quiet', () => {
    const input = document.createElement('input');
    submitInvalid(input);
    // The page stalls for 0.6 s: the first look comes after the half second, and React has not rendered yet.
    vi.setSystemTime(Date.now() + 600);
    vi.advanceTimersByTime(50);
    expect(toastError).not.toHaveBeenCalled();
    input.setAttribute('aria-invalid', 'true');
    vi.advanceTimersByTime(1_000);
    expect(toastError).not.toHaveBeenCalled();
  });

  it('says nothing about a form that left the page before it showed an error (a closed dialog)', () => {
    submitInvalid();
    vi.advanceTimersByTime(200);
    form.remove();
    vi.advanceTimersByTime(2_000);
    expect(toastError).not.toHaveBeenCalled();
  });

  it('reports the error itself when the form shows none after half a second and ten looks', () => {
    submitInvalid();
    vi.advanceTimersByTime(450);
    expect(toastError).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(toastError).toHaveBeenCalledWith('Das Passwort muss zwischen 8 und 64 Zeichen lang sein.');
  });
});

describe('inputResolver with a schema loader (issue 22: shop pages hydrate without zod)', () => {
  const toInput = (v: Record<string, unknown>) => ({ password: v.password, confirmPassword: v.confirmPassword });
  function LazyForm({ load, onValid }: { load: () => Promise<typeof ReinstallInput>; onValid: () => void }) {
    const form = useSchemaForm<Record<string, unknown>>({ resolver: inputResolver(load, toInput), defaultValues: good });
    return (
      <form onSubmit={form.handleSubmit(onValid)} noValidate>
        <input aria-label="Passwort" {...form.register('password')} />
        <button type="submit">Senden</button>
      </form>
    );
  }

  it('loads the schema on the first check only, then checks with it like an eager one', async () => {
    const load = vi.fn(async () => ReinstallInput);
    const onValid = vi.fn();
    const view = render(<LazyForm load={load} onValid={onValid} />);
    expect(load).not.toHaveBeenCalled();
    fireEvent.click(view.getByText('Senden'));
    await waitFor(() => expect(onValid).toHaveBeenCalledTimes(1));
    fireEvent.change(view.getByLabelText('Passwort'), { target: { value: 'kurz' } });
    fireEvent.click(view.getByText('Senden'));
    await waitFor(() => expect(toastError).toHaveBeenCalledTimes(1));
    expect(onValid).toHaveBeenCalledTimes(1);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('says in German that the check could not run when the schema fails to load, and tries again on the next submit', async () => {
    const load = vi.fn<() => Promise<typeof ReinstallInput>>().mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module')).mockResolvedValue(ReinstallInput);
    const onValid = vi.fn();
    const view = render(<LazyForm load={load} onValid={onValid} />);
    fireEvent.click(view.getByText('Senden'));
    await waitFor(() => expect(toastError).toHaveBeenCalledWith(validationUnavailable));
    expect(onValid).not.toHaveBeenCalled();
    fireEvent.click(view.getByText('Senden'));
    await waitFor(() => expect(onValid).toHaveBeenCalledTimes(1));
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe('errorsWithoutField', () => {
  it('keeps form-level and unmounted errors and drops those of mounted fields', () => {
    const errors = { '': { type: 'unrecognized_keys', message: 'Unbekanntes Feld' }, password: { type: 'too_small', message: 'kurz' }, root: { server: { type: 'x', message: 'Serverfehler' } } };
    expect(errorsWithoutField(errors as never, new Set(['password'])).map((e) => e.message)).toEqual(['Unbekanntes Feld', 'Serverfehler']);
  });
});
