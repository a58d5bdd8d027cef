import { useCallback, useRef, useState } from 'react';
import type { FieldErrors } from 'react-hook-form';
import { toast } from 'sonner';
import { shopMessages } from '@hp/contract';
import { useSession } from '../../lib/session.ts';
import { ApiRequestError } from '../../lib/api-client.ts';

/** Shop messages stay long enough to read before the page changes. */
export const SHOP_TOAST_MS = 7000;

/**
 * A shop page's "order and pay": refuses without a session (the page then shows its login hint), runs at
 * most once at a time, opens the provider's payment page on success, and says every failure in German
 * (the server's own message for what the customer can act on, otherwise the generic one). Shared by the
 * product shops so each says the same thing the same way.
 */
export function useCheckoutRedirect(loginMessage: string) {
  const { token } = useSession();
  const [loginNeeded, setLoginNeeded] = useState(false);
  const [redirecting, setRedirecting] = useState(false);
  const submitting = useRef(false);

  /** `refusal`: a reason known before asking the server (e.g. a name already taken), shown instead. */
  const pay = useCallback(async (start: () => Promise<{ url: string }>, refusal?: string | null) => {
    if (submitting.current) return;
    if (!token) {
      setLoginNeeded(true);
      toast.error(loginMessage, { duration: SHOP_TOAST_MS });
      return;
    }
    if (refusal) {
      toast.error(refusal, { duration: SHOP_TOAST_MS });
      return;
    }
    submitting.current = true;
    try {
      const res = await start();
      setRedirecting(true);
      window.location.assign(res.url);
    } catch (err) {
      submitting.current = false;
      if (err instanceof ApiRequestError && err.status === 401) setLoginNeeded(true);
      toast.error(err instanceof ApiRequestError && (err.status < 500 || err.code === 'PAYMENT_UNAVAILABLE') ? err.message : shopMessages.genericError, { duration: SHOP_TOAST_MS });
    }
  }, [token, loginMessage]);

  /** The form's own check failed: the terms box first, otherwise the first field's message. */
  const invalid = useCallback((errors: FieldErrors) => {
    const first = errors.acceptTerms ? shopMessages.termsRequired : Object.values(errors).find((e) => e?.message)?.message;
    toast.error(typeof first === 'string' ? first : shopMessages.genericError, { duration: SHOP_TOAST_MS });
  }, []);

  return { pay, invalid, loginNeeded, redirecting };
}
