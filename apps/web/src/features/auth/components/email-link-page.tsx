import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { CheckCircle2 } from 'lucide-react';
import { ConfirmEmailLinkInput, emailLinkMessages } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { PageMeta } from '../../../components/page-meta.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { paths } from '../../../config/paths.ts';
import { useToken } from '../../../lib/session.ts';
import { confirmEmailLinkRequest } from '../api/account.ts';
import { AuthCard } from './auth-card.tsx';

/**
 * The page behind the link of a staff-initiated e-mail change (docs/decisions/021). Opening it changes
 * nothing (mail scanners open links); the button does. Works without a login.
 */
export default function EmailLinkPage() {
  const [params] = useSearchParams();
  const input = { id: params.get('id') ?? '', token: params.get('token') ?? '' };
  const wellFormed = ConfirmEmailLinkInput.safeParse(input).success;
  const [state, setState] = useState<'idle' | 'busy' | 'done'>('idle');
  const [error, setError] = useState<string | null>(wellFormed ? null : emailLinkMessages.invalidLink);
  // Opened in a browser that is signed in: back to the account, not to a login that is not needed.
  const signedIn = useToken() !== null;

  const confirm = async () => {
    setState('busy');
    setError(null);
    try {
      await confirmEmailLinkRequest(input);
      setState('done');
    } catch (err) {
      setState('idle');
      setError(err instanceof ApiRequestError && err.status < 500 && err.message ? err.message : emailLinkMessages.failed);
    }
  };

  return (
    <>
      <PageMeta title="Neue E-Mail-Adresse bestätigen" />
      <AuthCard
        title="Neue E-Mail-Adresse bestätigen"
        subtitle={state === 'done' ? undefined : 'Unser Support hat diese Adresse für Ihr Kundenkonto eingetragen. Sie gilt, sobald Sie sie hier bestätigen.'}
        footer={signedIn
          ? <Link className="font-medium text-brand-700 underline" to={paths.dashboard.profile}>Zu Ihrem Konto</Link>
          : <Link className="font-medium text-brand-700 underline" to={paths.login}>Zur Anmeldung</Link>}
      >
        {state === 'done' ? (
          <div role="status" className="flex items-start gap-3 text-slate-800">
            <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-green-700" aria-hidden="true" />
            <p>{emailLinkMessages.confirmed}</p>
          </div>
        ) : (
          <div className="space-y-5">
            {error && <Alert tone="error">{error}</Alert>}
            <Button type="button" className="w-full" loading={state === 'busy'} disabled={!wellFormed} onClick={() => void confirm()}>E-Mail-Adresse bestätigen</Button>
          </div>
        )}
      </AuthCard>
    </>
  );
}
