import type { OrderTax } from '@hp/contract';

/**
 * The frozen content of an issued invoice or credit note. It is written once, in the transaction that
 * assigns the number, and never changed (a correction is a credit note). The PDF and the XRechnung XML
 * are rendered from this snapshot only, so a download today and in ten years show the same document.
 */
export interface InvoiceParty {
  name: string;
  /** Street and house number. */
  street: string;
  postalCode: string;
  city: string;
  /** ISO 3166-1 alpha-2, e.g. DE */
  countryCode: string;
  email: string;
}

export interface InvoiceSeller extends InvoiceParty {
  phone: string;
  /** e.g. Max Mustermann (Geschäftsführer) */
  managingDirector: string;
  /** e.g. Amtsgericht Frankfurt am Main, HRB 000000 */
  register: string;
  /** USt-IdNr., e.g. DE123456789 */
  vatId: string;
  /** Steuernummer from configuration */
  taxNumber: string;
}

export interface InvoiceBuyer extends InvoiceParty {
  /** Our customer number; used as the buyer reference (BT-10) and buyer identifier. */
  customerNumber: number;
  company: string | null;
  /** The buyer's USt-IdNr. (required for reverse charge, §14a UStG; BT-48). */
  vatId?: string | null;
}

/** The seller's bank account, printed on invoices paid by transfer (BG-17). */
export interface InvoiceBankAccount {
  iban: string;
  bic: string;
  bankName: string;
  holder: string;
}

export interface InvoiceLine {
  /** 1, 2, … */
  id: string;
  name: string;
  description: string;
  quantity: number;
  /** UN/ECE rec 20, e.g. 'MON' (month) or 'C62' (one) */
  unitCode: string;
  /** Net, in cents, for the whole line. */
  netCents: number;
  /** Net unit price in cents (may carry a remainder that the line total rounds away). */
  unitPriceCents: number;
  vatPercent: number;
}

export interface InvoiceDocument {
  kind: 'invoice' | 'credit_note';
  /** e.g. RE-2026-000001 or GS-2026-000001 */
  number: string;
  /** For a credit note: the number of the invoice it corrects. */
  correctsNumber: string | null;
  /** YYYY-MM-DD (Europe/Berlin) */
  issueDate: string;
  /** YYYY-MM-DD, issue date + 15 days (portal spec §9) */
  dueDate: string;
  /** Service period YYYY-MM-DD … YYYY-MM-DD */
  periodStart: string;
  periodEnd: string;
  currency: 'EUR';
  orderNumber: string;
  seller: InvoiceSeller;
  buyer: InvoiceBuyer;
  lines: InvoiceLine[];
  totals: {
    netCents: number;
    vatCents: number;
    grossCents: number;
    /** Already paid by card at checkout: equals gross, so the amount due is 0. */
    prepaidCents: number;
    dueCents: number;
  };
  vatPercent: number;
  /**
   * UNCL 5305 VAT category of the whole document: S = standard rate (default when absent), AE = reverse
   * charge (0 %, the EU business customer owes the VAT; needs both VAT ids), O = not subject to German
   * VAT (customers outside the EU; no VAT ids on the document, BR-O-02).
   */
  vatCategory?: 'S' | 'AE' | 'O';
  /**
   * The order's tax decision (issue 24), copied when the document is issued; a credit note copies its
   * invoice's. Absent on documents issued before: German VAT at `vatPercent`.
   */
  tax?: OrderTax;
  payment: {
    /** UNCL 4461: 54 = credit card, 58 = SEPA credit transfer (manual invoices), 97 = clearing (credit note of a manual invoice) */
    meansCode: '54' | '58' | '97';
    /** For transfers: where to pay. */
    bank?: InvoiceBankAccount | null;
    /** The payment provider's reference (checkout session id). */
    reference: string;
    card: { brand: string; last4: string; holder: string } | null;
    paidAt: string | null;
  };
  /** Free text shown on the document (e.g. "Bereits per Kreditkarte bezahlt."). */
  notes: string[];
}
