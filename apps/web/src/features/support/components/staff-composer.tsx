import { useState } from 'react';
import { Lock, Reply } from 'lucide-react';
import { cn } from '../../../lib/cn.ts';
import type { ChatFiles } from './attachments.tsx';
import { ChatComposer, draftKey } from './chat.tsx';

export type ComposerMode = 'answer' | 'note';
type Send = (input: { body: string; attachmentIds: string[] }) => Promise<unknown>;

const modes = [
  { value: 'answer', label: 'Antwort', Icon: Reply },
  { value: 'note', label: 'Interne Notiz', Icon: Lock },
] as const;

/**
 * Staff write to a ticket in ONE composer whose mode is chosen explicitly, "Antwort" (default) or
 * "Interne Notiz" (an outside review saw a reply land as a note when two look-alike boxes both sent
 * with Enter). The mode is a native radio group, so arrow keys and screen readers work as everywhere;
 * the note mode is amber, carries a lock and says who sees it. Each mode keeps its own draft and its
 * own chosen files: both composers stay mounted and only the active one is shown. A closed ticket
 * takes notes only.
 */
export function StaffComposer({ ticketId, closed, files, onAnswer, onNote, onDraftChange }: {
  ticketId: string;
  closed: boolean;
  files: ChatFiles;
  onAnswer: Send;
  onNote: Send;
  onDraftChange?: (draft: string) => void;
}) {
  const [chosen, setChosen] = useState<ComposerMode>('answer');
  const mode: ComposerMode = closed ? 'note' : chosen;
  return (
    <div className="flex flex-col gap-2" data-composer-mode={mode}>
      <fieldset className="flex flex-wrap items-center gap-x-3 gap-y-1" aria-describedby={closed ? 'composer-mode-closed' : undefined}>
        <legend className="sr-only">Art der Nachricht</legend>
        <div className="inline-flex rounded-lg bg-slate-200 p-1">
          {modes.map(({ value, label, Icon }) => {
            const checked = mode === value;
            const disabled = closed && value === 'answer';
            return (
              <label
                key={value}
                className={cn(
                  'relative flex min-h-9 items-center gap-1.5 rounded-md px-3 text-sm font-medium transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600',
                  checked
                    ? (value === 'note' ? 'bg-amber-100 text-amber-950 shadow-sm ring-1 ring-amber-500' : 'bg-white text-slate-900 shadow-sm ring-1 ring-slate-300')
                    : 'text-slate-700 hover:text-slate-900',
                  disabled ? 'cursor-not-allowed opacity-60' : 'cursor-pointer',
                )}
              >
                <input
                  type="radio"
                  name={`composer-mode-${ticketId}`}
                  value={value}
                  checked={checked}
                  disabled={disabled}
                  onChange={() => setChosen(value)}
                  className="absolute inset-0 m-0 cursor-[inherit] appearance-none rounded-md opacity-0"
                />
                <Icon className="size-4" aria-hidden="true" />
                {label}
              </label>
            );
          })}
        </div>
        {closed && <p id="composer-mode-closed" className="text-sm text-slate-600">Das Ticket ist geschlossen; nur interne Notizen sind möglich.</p>}
      </fieldset>
      {!closed && (
        <div hidden={mode !== 'answer'}>
          <ChatComposer label="Antwort an den Kunden" placeholder="Antwort schreiben …" onSend={onAnswer} files={files} onDraftChange={onDraftChange} draftKey={draftKey(ticketId, 'answer')} />
        </div>
      )}
      <div hidden={mode !== 'note'}>
        <ChatComposer label="Interne Notiz – nur für Mitarbeiter sichtbar" placeholder="Notiz schreiben …" onSend={onNote} files={files} submitLabel="Notiz speichern" tone="note" onDraftChange={onDraftChange} draftKey={draftKey(ticketId, 'note')} />
      </div>
    </div>
  );
}
