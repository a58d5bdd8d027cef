import { useEffect, useLayoutEffect, useRef, type BaseSyntheticEvent, type KeyboardEvent } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Lock, Send } from 'lucide-react';
import { PostTicketMessageInput, SUPPORT_AGENT_LABEL, type TicketMessage, type TicketMessagePage } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, Spinner } from '../../../components/ui/card.tsx';
import { inputClass } from '../../../components/ui/field.tsx';
import { useSchemaForm } from '../../../lib/forms.ts';
import { cn } from '../../../lib/cn.ts';
import { formatDateTime } from './ticket-badges.tsx';
import { AttachButton, AttachmentList, PendingFiles, useFileQueue, type ChatFiles } from './attachments.tsx';

interface MessagesQuery {
  data?: { pages: TicketMessagePage[] };
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
  refetch: () => unknown;
}

/**
 * The chat of a ticket, oldest at the top. `viewer` decides which side is "mine" (right-aligned): the
 * customer's messages for the customer, staff messages for staff. Customers see every staff message as
 * "Support Agent"; staff see names, and internal notes marked as such. Text is rendered as text, never HTML.
 */
export function ChatMessages({ query, viewer, customerName, files }: { query: MessagesQuery; viewer: 'customer' | 'staff'; customerName?: string; files: ChatFiles }) {
  const messages = [...(query.data?.pages ?? [])].flatMap((p) => p.items).reverse();
  const endRef = useRef<HTMLDivElement>(null);
  const topRef = useRef<HTMLDivElement>(null);
  const newest = messages[messages.length - 1]?.id;
  const jumped = useRef(false);
  useEffect(() => {
    if (!newest || !endRef.current) return;
    // Opening the chat jumps to the newest message at once (a smooth scroll would pass the top and load
    // older pages on the way); later messages scroll into view smoothly.
    endRef.current.scrollIntoView({ block: 'nearest', behavior: jumped.current ? 'smooth' : 'instant' });
    jumped.current = true;
  }, [newest]);
  // Older messages load when the reader scrolls up to the top of the chat (the button stays for
  // keyboards and screen readers). The view stays on the message the reader was looking at: the page
  // is scrolled down by exactly what was added above (browsers do not anchor at the very top), so the
  // top of the chat is out of view again and the next page waits for the next scroll.
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const ready = !query.isPending && !query.isError;
  const anchor = useRef<{ height: number; y: number } | null>(null);
  const pageCount = query.data?.pages.length ?? 0;
  useLayoutEffect(() => {
    const before = anchor.current;
    if (!before) return;
    anchor.current = null;
    const grown = document.documentElement.scrollHeight - before.height;
    if (grown > 0) window.scrollTo({ top: before.y + grown, behavior: 'instant' });
  }, [pageCount]);
  const loadOlder = useRef(() => {});
  loadOlder.current = () => {
    if (isFetchingNextPage) return;
    anchor.current = { height: document.documentElement.scrollHeight, y: window.scrollY };
    void fetchNextPage();
  };
  useEffect(() => {
    const sentinel = topRef.current;
    if (!sentinel || !ready || !hasNextPage || isFetchingNextPage) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) loadOlder.current();
    }, { rootMargin: '200px 0px 0px 0px' });
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [ready, hasNextPage, isFetchingNextPage]);

  if (query.isPending) return <div className="py-8"><Spinner label="Lade Nachrichten …" /></div>;
  if (query.isError) return <Alert tone="error">Die Nachrichten konnten nicht geladen werden. {query.error?.message}</Alert>;
  return (
    <div className="flex flex-col gap-3 [overflow-anchor:none]">
      <div ref={topRef} aria-hidden="true" />
      {query.hasNextPage && (
        <div className="text-center">
          <Button variant="outline" size="sm" onClick={() => loadOlder.current()} loading={query.isFetchingNextPage}>Ältere Nachrichten laden</Button>
        </div>
      )}
      {messages.length === 0 && <p className="py-6 text-center text-sm text-slate-600">Noch keine Nachrichten.</p>}
      <ol className="flex flex-col gap-3" aria-label="Nachrichten">
        {messages.map((message) => <ChatBubble key={message.id} message={message} viewer={viewer} customerName={customerName} files={files} />)}
      </ol>
      <div ref={endRef} />
    </div>
  );
}

function ChatBubble({ message, viewer, customerName, files }: { message: TicketMessage; viewer: 'customer' | 'staff'; customerName?: string; files: ChatFiles }) {
  const mine = message.author === viewer;
  const sender = message.author === 'customer'
    ? (viewer === 'customer' ? 'Sie' : customerName ?? 'Kunde')
    : (viewer === 'customer' ? SUPPORT_AGENT_LABEL : message.authorName ?? SUPPORT_AGENT_LABEL);
  return (
    <li className={cn('flex', mine ? 'justify-end' : 'justify-start')} data-author={message.author} data-internal={message.internal || undefined}>
      <div className={cn(
        'max-w-[85%] rounded-2xl px-4 py-2.5 shadow-sm sm:max-w-[75%]',
        message.internal ? 'border border-dashed border-amber-400 bg-amber-50 text-slate-900' : mine ? 'bg-brand-700 text-white' : 'bg-white text-slate-900 ring-1 ring-slate-200',
      )}>
        <p className={cn('flex flex-wrap items-center gap-x-2 text-xs font-semibold', message.internal ? 'text-amber-900' : mine ? 'text-white' : 'text-slate-700')}>
          {message.internal && <><Lock className="size-3" aria-hidden="true" /> Interne Notiz ·</>}
          <span>{sender}</span>
          <time dateTime={message.createdAt} className="font-normal">{formatDateTime(message.createdAt)}</time>
        </p>
        {message.body && <p className="mt-1 whitespace-pre-wrap break-words">{message.body}</p>}
        <AttachmentList attachments={message.attachments} files={files} onLight={message.internal || !mine} />
      </div>
    </li>
  );
}

/**
 * The message box: Enter sends, Shift+Enter makes a new line; it grows with the text up to about 8rem and
 * scrolls beyond. Empty messages are not sent (the contract's schema refuses them on both sides). Files
 * upload as soon as they are chosen; a message may be text, files or both.
 */
/** Unsent text survives navigation and reloads in this tab (sessionStorage), per ticket and box. */
export const readDraft = (key: string | undefined) => {
  if (!key) return '';
  try {
    return sessionStorage.getItem(key) ?? '';
  } catch {
    return '';
  }
};
function writeDraft(key: string | undefined, text: string) {
  if (!key) return;
  try {
    if (text) sessionStorage.setItem(key, text);
    else sessionStorage.removeItem(key);
  } catch {
    // Storage full or disabled: the draft just does not survive a reload.
  }
}
export const draftKey = (ticketId: string, box: 'customer' | 'answer' | 'note') => `hp.draft.${ticketId}.${box}`;

export function ChatComposer({ label, placeholder, onSend, files, disabled, submitLabel = 'Senden', tone = 'default', onDraftChange, draftKey: storageKey }: {
  label: string;
  placeholder: string;
  onSend: (input: { body: string; attachmentIds: string[] }) => Promise<unknown>;
  files?: ChatFiles;
  disabled?: boolean;
  submitLabel?: string;
  tone?: 'default' | 'note';
  /** Every change of the text, '' after sending (the staff view's typing signal). */
  onDraftChange?: (draft: string) => void;
  /** Where the unsent text is kept (see draftKey). */
  draftKey?: string;
}) {
  const form = useSchemaForm<PostTicketMessageInput>({ resolver: zodResolver(PostTicketMessageInput), defaultValues: { body: readDraft(storageKey), attachmentIds: [] } });
  const body = form.watch('body');
  const fileQueue = useFileQueue(files);
  const error = form.formState.errors.body?.message;
  useEffect(() => {
    onDraftChange?.(body);
  }, [body, onDraftChange]);
  useEffect(() => writeDraft(storageKey, body), [storageKey, body]);
  const canSend = (body.trim().length > 0 || fileQueue.ids.length > 0) && !fileQueue.uploading;
  const submit = (event?: BaseSyntheticEvent) => {
    form.setValue('attachmentIds', fileQueue.ids);
    return form.handleSubmit(async ({ body: text, attachmentIds = [] }) => {
      try {
        await onSend({ body: text, attachmentIds });
        form.reset({ body: '', attachmentIds: [] });
        fileQueue.clear();
      } catch {
        // The caller showed the toast; the text and the files stay.
      }
    })(event);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (canSend && !form.formState.isSubmitting) void submit();
  };
  const id = `composer-${tone}`;
  return (
    <form onSubmit={submit} noValidate className={cn('flex flex-col gap-1.5', tone === 'note' && 'rounded-lg border-2 border-amber-400 bg-amber-50 p-2 sm:p-3')}>
      <label htmlFor={id} className={cn('text-sm font-medium', tone === 'note' ? 'flex items-center gap-1.5 text-amber-950' : 'text-slate-800')}>
        {tone === 'note' && <Lock className="size-4" aria-hidden="true" />}{label}
      </label>
      <PendingFiles queue={fileQueue.queue} onRemove={fileQueue.remove} />
      <div className="flex items-end gap-2">
        {files && <AttachButton id={`${id}-files`} onFiles={fileQueue.add} disabled={disabled} />}
        <textarea
          id={id}
          rows={1}
          placeholder={placeholder}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={[error ? `${id}-error` : null, `${id}-hint`].filter(Boolean).join(' ')}
          className={cn(inputClass, 'field-sizing-content max-h-32 min-h-11 resize-none overflow-y-auto', tone === 'note' && 'border-amber-400')}
          onKeyDown={onKeyDown}
          {...form.register('body')}
        />
        <Button type="submit" className="shrink-0 whitespace-nowrap" variant={tone === 'note' ? 'outline' : 'primary'} loading={form.formState.isSubmitting} disabled={disabled || !canSend} aria-label={submitLabel}>
          <Send className="size-4" aria-hidden="true" /><span className="max-sm:sr-only">{submitLabel}</span>
        </Button>
      </div>
      <p id={`${id}-hint`} className={cn('text-xs', tone === 'note' ? 'text-amber-950' : 'text-slate-600')}>
        {tone === 'note' ? 'Enter speichert die Notiz, Umschalt+Enter beginnt eine neue Zeile.' : 'Enter sendet, Umschalt+Enter beginnt eine neue Zeile.'}
      </p>
      {error && <p id={`${id}-error`} role="alert" className="text-sm font-medium text-red-700">{error}</p>}
    </form>
  );
}
