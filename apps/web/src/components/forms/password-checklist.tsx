import { Check, X } from 'lucide-react';
import type { PasswordRule } from '@hp/contract';
import { cn } from '../../lib/cn.ts';

/** Live checklist of the password rules; announced politely as the user types. */
export function PasswordChecklist({ password, rules, id }: { password: string; rules: PasswordRule[]; id?: string }) {
  return (
    <ul id={id} className="space-y-1 text-sm" aria-live="polite" aria-label="Passwortanforderungen">
      {rules.map((rule) => {
        const ok = rule.test(password);
        return (
          <li key={rule.id} className={cn('flex items-center gap-2', ok ? 'text-green-700' : 'text-slate-600')}>
            {ok ? <Check className="size-4" aria-hidden="true" /> : <X className="size-4" aria-hidden="true" />}
            <span>{rule.label}</span>
            <span className="sr-only">{ok ? '(erfüllt)' : '(nicht erfüllt)'}</span>
          </li>
        );
      })}
    </ul>
  );
}
