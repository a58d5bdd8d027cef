import { useMemo } from 'react';
import { useForm, type FieldErrors, type FieldValues, type Resolver, type SubmitErrorHandler, type UseFormProps, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { toast } from 'sonner';

export const formInvalidFallback = 'Bitte prüfen Sie Ihre Eingaben.';

/** Shown when the validation code could not be loaded (a dropped connection while the page was open). */
export const validationUnavailable = 'Die Eingaben konnten nicht geprüft werden, weil ein Teil der Seite nicht geladen wurde. Bitte prüfen Sie Ihre Verbindung und versuchen Sie es erneut.';

let zodResolvers: Promise<typeof import('@hookform/resolvers/zod')> | undefined;

/**
 * A resolver that checks exactly what will be sent: the contract's input built from the form's values by
 * `toInput` (a checkout sends a renewal's id instead of a new name, a name only when one was typed …),
 * so the server's schema, strict against unknown keys, refuses nothing the form let through.
 *
 * The schema may be given as a loader (`() => import(…)`): a prerendered shop page then hydrates without
 * zod and its schemas, which load on the first check (issue 22: about 100 ms of a phone's main thread).
 * The resolver library itself always loads on the first check. If loading fails, the check reports a form
 * error with a German message instead of letting the submit fail without a word; the next check tries again.
 */
export function inputResolver<Values extends FieldValues, Schema extends z.ZodType<FieldValues>>(schema: Schema | (() => Promise<Schema>), toInput: (values: Values) => Record<string, unknown>): Resolver<Values, unknown, z.output<Schema>> {
  type Result = Awaited<ReturnType<Resolver<Values, unknown, z.output<Schema>>>>;
  let check: Promise<ReturnType<typeof import('@hookform/resolvers/zod').zodResolver>> | undefined;
  return async (values, context, options) => {
    check ??= Promise.all([zodResolvers ??= import('@hookform/resolvers/zod'), typeof schema === 'function' ? schema() : schema])
      .then(([{ zodResolver }, loaded]) => zodResolver(loaded as never));
    let resolve: Awaited<typeof check>;
    try {
      resolve = await check;
    } catch {
      check = undefined;
      zodResolvers = undefined;
      return { values: {}, errors: { root: { type: 'unavailable', message: validationUnavailable } } } as unknown as Result;
    }
    return resolve(toInput(values) as never, context, options as never) as unknown as Result;
  };
}

interface FlatError { path: string; message: string }

/** Every error of a nested react-hook-form error tree with its dotted path ('' for the form itself). */
export function flattenErrors(errors: FieldErrors, prefix = ''): FlatError[] {
  const out: FlatError[] = [];
  for (const [key, value] of Object.entries(errors ?? {})) {
    if (!value || typeof value !== 'object' || key === 'ref') continue;
    const path = prefix ? `${prefix}.${key}` : key;
    const entry = value as { message?: unknown; type?: unknown };
    if (typeof entry.message === 'string' && entry.message) out.push({ path, message: entry.message });
    else if (typeof entry.type !== 'string') out.push(...flattenErrors(value as FieldErrors, path));
  }
  return out;
}

/**
 * Errors that no mounted field can show: a key the schema refuses but no input carries (the reinstall
 * dialog once sent `confirmLoss` to a strict schema), a form-level refinement, or an error of a field
 * that is not on screen. These are exactly the ones that would make a submit fail without a word.
 */
export function errorsWithoutField(errors: FieldErrors, mounted: ReadonlySet<string>): FlatError[] {
  return flattenErrors(errors).filter(({ path }) => {
    if (!path || path === 'root' || path.startsWith('root.')) return true;
    const parts = path.split('.');
    return !parts.some((_, i) => mounted.has(parts.slice(0, i + 1).join('.')));
  });
}

/**
 * The default reaction to a failed validation: if an error has no field to show it, or the form
 * shows no error at all after rendering, the user gets a toast with the message.
 */
export function reportInvalidSubmit(errors: FieldErrors, mounted: ReadonlySet<string>, event?: { target?: unknown }) {
  const unshown = errorsWithoutField(errors, mounted);
  const first = flattenErrors(errors)[0]?.message;
  const formElement = event?.target instanceof Element ? event.target.closest('form') ?? event.target : null;
  if (unshown.length > 0) {
    toast.error(unshown[0]!.message);
    return;
  }
  // Once React has rendered the field errors: does the form show any? A busy browser may take longer than
  // one look (then the same message came twice, under the field and as a toast), so it looks again for
  // half a second and at least ten times before it reports the error itself: a page that stalled for half a
  // second would otherwise use up the time before React had rendered once. A user who types meanwhile has
  // seen the error and is correcting it (and the correction may already have cleared it): no toast then.
  // Nor for a form that has left the page meanwhile (a dialog closed, the user went elsewhere): its message
  // would arrive without the form it is about.
  let typed = false;
  formElement?.addEventListener('input', () => { typed = true; }, { once: true });
  const until = Date.now() + 500;
  let looks = 0;
  const look = () => {
    if (typed || (formElement && !formElement.isConnected) || formElement?.querySelector('[aria-invalid="true"], [role="alert"]')) return;
    if (++looks < 10 || Date.now() < until) setTimeout(look, 50);
    else toast.error(first ?? formInvalidFallback);
  };
  setTimeout(look, 50);
}

/**
 * `useForm` with the project's rule that a failed validation is never silent: `handleSubmit` without
 * an own `onInvalid` reports errors that no field shows (see `reportInvalidSubmit`). Forms pass the
 * contract's schema through `zodResolver`; fields that exist only in the UI (confirmation checkboxes)
 * belong to a form schema in the contract, never to the request schema.
 */
export function useSchemaForm<TFieldValues extends FieldValues = FieldValues, TContext = unknown, TTransformed = TFieldValues>(
  props: UseFormProps<TFieldValues, TContext, TTransformed>,
): UseFormReturn<TFieldValues, TContext, TTransformed> {
  const form = useForm<TFieldValues, TContext, TTransformed>(props);
  const { handleSubmit, control } = form;
  const reportingSubmit = useMemo<typeof handleSubmit>(
    () => (onValid, onInvalid) =>
      handleSubmit(onValid, onInvalid ?? (((errors, event) => reportInvalidSubmit(errors, control._names.mount, event)) as SubmitErrorHandler<TFieldValues>)),
    [handleSubmit, control],
  );
  // Not memoised: react-hook-form refreshes `formState` on the same object every render.
  return { ...form, handleSubmit: reportingSubmit };
}
