import { describe, expect, it } from 'vitest';
import { invoiceState } from './invoices.service.ts';

describe('invoice state (Rechnungen: Bezahlt / Offen / Überfällig / Gutgeschrieben)', () => {
  const base = { kind: 'invoice' as const, paidAt: null, creditedAt: null, dueDate: '2026-03-10' };
  it('open until the due date, overdue after it, paid once paid', () => {
    expect(invoiceState(base, '2026-03-10')).toBe('open');
    expect(invoiceState(base, '2026-03-11')).toBe('overdue');
    expect(invoiceState({ ...base, paidAt: new Date() }, '2026-03-11')).toBe('paid');
  });
  it('a credit note wins over a payment: a paid card invoice that was refunded reads "credited", not "paid"', () => {
    expect(invoiceState({ ...base, creditedAt: new Date() }, '2026-03-11')).toBe('credited');
    expect(invoiceState({ ...base, paidAt: new Date(), creditedAt: new Date() }, '2026-03-11')).toBe('credited');
  });
  it('credit notes have no payment state', () => {
    expect(invoiceState({ ...base, kind: 'credit_note' })).toBeNull();
  });
});
