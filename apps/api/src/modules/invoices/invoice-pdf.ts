import { formatEuro } from '@hp/contract';
import type { InvoiceDocument, InvoiceLine } from '../../db/schema/invoice-document.ts';
import { swissVatNumberOf, taxCategoryOf, taxNotesOf } from './invoice-tax-text.ts';

/**
 * The printable invoice or credit note: A4, DIN 5008 form B (address window 45 mm from the top,
 * 20 mm from the left), the built-in Helvetica (WinAnsi covers ä ö ü ß € • –). Rendered from the
 * frozen snapshot only, with the issue date as creation date, so the same snapshot gives the same bytes.
 */

export interface RenderInvoicePdfOptions {
  /** Tests switch compression off to read the text operators; production output is compressed. */
  compress?: boolean;
}

type Pdf = PDFKit.PDFDocument;

const MM = 72 / 25.4;
const PAGE = { width: 210 * MM, height: 297 * MM };
const LEFT = 25 * MM;
const RIGHT = PAGE.width - 20 * MM;
const WIDTH = RIGHT - LEFT;
/** Where content starts on follow-up pages; the running title and the repeated table header sit above. */
const CONTINUATION_TOP = 36 * MM;
const FOOTER_TOP = PAGE.height - 24 * MM;
/** Content never goes below this line (pdfkit's own page breaks use it through the bottom margin). */
const CONTENT_BOTTOM = FOOTER_TOP - 10 * MM;

const COLOR = { text: '#1a1a1a', muted: '#666666', rule: '#c8c8c8', band: '#eef1f4', accent: '#1f3a5f' };

interface TextStyle { font: 'Helvetica' | 'Helvetica-Bold'; size: number; color: string }
const STYLE = {
  body: { font: 'Helvetica', size: 9.5, color: COLOR.text },
  bodyBold: { font: 'Helvetica-Bold', size: 9.5, color: COLOR.text },
  small: { font: 'Helvetica', size: 8, color: COLOR.muted },
  label: { font: 'Helvetica', size: 8.5, color: COLOR.muted },
  value: { font: 'Helvetica', size: 8.5, color: COLOR.text },
  tableHead: { font: 'Helvetica-Bold', size: 8, color: COLOR.text },
  address: { font: 'Helvetica', size: 10, color: COLOR.text },
  senderLine: { font: 'Helvetica', size: 7, color: COLOR.muted },
  sellerName: { font: 'Helvetica-Bold', size: 13, color: COLOR.accent },
  title: { font: 'Helvetica-Bold', size: 15, color: COLOR.text },
  footer: { font: 'Helvetica', size: 7, color: COLOR.muted },
  footerBold: { font: 'Helvetica-Bold', size: 7, color: COLOR.muted },
} satisfies Record<string, TextStyle>;

/** Line table columns: x and width; numbers are right-aligned to x + width. */
const COL = {
  pos: { x: LEFT + 4, width: 22 },
  item: { x: LEFT + 30, width: WIDTH - 30 - 214 - 12 },
  quantity: { x: RIGHT - 214, width: 58 },
  unitPrice: { x: RIGHT - 152, width: 76 },
  total: { x: RIGHT - 74, width: 70 },
};
const ROW_PADDING = 5;

/** DE89370400440532013000 → DE89 3704 0044 0532 0130 00 (the printed form). */
export const groupIban = (iban: string) => iban.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');

// ── text that Helvetica (WinAnsi) can show ──────────────────────────────────────────────────────────

// Unicode code points above 0xFF that WinAnsiEncoding maps into 0x80–0x9F.
const WIN_ANSI_EXTRA = new Set([
  0x0152, 0x0153, 0x0160, 0x0161, 0x0178, 0x017d, 0x017e, 0x0192, 0x02c6, 0x02dc, 0x2013, 0x2014, 0x2018, 0x2019,
  0x201a, 0x201c, 0x201d, 0x201e, 0x2020, 0x2021, 0x2022, 0x2026, 0x2030, 0x2039, 0x203a, 0x20ac, 0x2122,
]);
// Letters with a stroke have no decomposition, so NFKD alone would turn Łódź into ?odz.
const REPLACEMENTS: Record<string, string> = {
  '\u2212': '-', '\u2010': '-', '\u2011': '-', '\u00ad': '', '\t': ' ',
  Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', Ħ: 'H', ħ: 'h', ı: 'i', Ŧ: 'T', ŧ: 't', Ŀ: 'L', ŀ: 'l',
};

function isWinAnsi(codePoint: number): boolean {
  return (codePoint >= 0x20 && codePoint <= 0x7e) || (codePoint >= 0xa0 && codePoint <= 0xff) || WIN_ANSI_EXTRA.has(codePoint);
}

/**
 * Makes any string printable with the standard fonts: pdfkit would otherwise emit broken codes for
 * characters outside WinAnsi (emoji, CJK, controls). Accents it cannot show are dropped (ł stays ?).
 */
export function toPdfText(value: string, { multiline = false } = {}): string {
  let out = '';
  for (const char of value.normalize('NFC')) {
    if (char === '\n' || char === '\r') {
      out += multiline ? (char === '\n' ? '\n' : '') : ' ';
      continue;
    }
    const replaced = REPLACEMENTS[char];
    if (replaced !== undefined) { out += replaced; continue; }
    const code = char.codePointAt(0) ?? 0;
    if (isWinAnsi(code)) { out += char; continue; }
    if (/\s/u.test(char)) { out += ' '; continue; }
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) continue;
    const base = char.normalize('NFKD').replace(/\p{M}/gu, '');
    out += base && [...base].every((c) => isWinAnsi(c.codePointAt(0) ?? 0)) ? base : '?';
  }
  return out;
}

// ── formatting ──────────────────────────────────────────────────────────────────────────────────────

const money = (cents: number) => formatEuro(cents);
const number = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 3 });
const berlinDate = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', day: '2-digit', month: '2-digit', year: 'numeric' });
const regionNames = new Intl.DisplayNames(['de'], { type: 'region' });

/** 2026-04-02 → 02.04.2026 */
function formatDate(isoDate: string): string {
  const [y, m, d] = isoDate.split('-');
  return y && m && d ? `${d}.${m}.${y}` : isoDate;
}

function countryName(code: string): string {
  try {
    return regionNames.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

const UNITS: Record<string, [string, string]> = {
  MON: ['Monat', 'Monate'],
  DAY: ['Tag', 'Tage'],
  HUR: ['Std.', 'Std.'],
  ANN: ['Jahr', 'Jahre'],
  C62: ['Stk.', 'Stk.'],
  H87: ['Stk.', 'Stk.'],
  GB: ['GB', 'GB'],
};

function formatQuantity(line: InvoiceLine): string {
  const unit = UNITS[line.unitCode];
  const label = unit ? unit[line.quantity === 1 ? 0 : 1] : line.unitCode;
  return `${number.format(line.quantity)} ${label}`;
}

function formatPercent(percent: number): string {
  return `${number.format(percent)} %`;
}

/** "Max Mustermann (Geschäftsführer)" and "Max Mustermann" both print as "Geschäftsführer: Max Mustermann". */
function managingDirectorLine(value: string): string {
  const name = value.replace(/\s*\(Geschäftsführer(in)?\)\s*$/i, '').trim();
  return name ? `Geschäftsführer: ${name}` : '';
}

// ── rendering ───────────────────────────────────────────────────────────────────────────────────────

export async function renderInvoicePdf(doc: InvoiceDocument, options: RenderInvoicePdfOptions = {}): Promise<Buffer> {
  const isCreditNote = doc.kind === 'credit_note';
  const title = `${isCreditNote ? 'Gutschrift' : 'Rechnung'} ${doc.number}`;
  const created = new Date(`${doc.issueDate}T00:00:00Z`);
  // Loaded on the first invoice, not at start: pdfkit and its fonts cost a fifth of a second of CPU (issue 26).
  const { default: PDFDocument } = await import('pdfkit');
  const pdf: Pdf = new PDFDocument({
    size: 'A4',
    margins: { top: CONTINUATION_TOP, bottom: PAGE.height - CONTENT_BOTTOM, left: LEFT, right: PAGE.width - RIGHT },
    bufferPages: true,
    compress: options.compress ?? true,
    lang: 'de-DE',
    displayTitle: true,
    info: {
      Title: title,
      Author: doc.seller.name,
      Subject: `${title} vom ${formatDate(doc.issueDate)}`,
      Creator: doc.seller.name,
      CreationDate: Number.isNaN(created.getTime()) ? new Date(0) : created,
      ModDate: Number.isNaN(created.getTime()) ? new Date(0) : created,
    },
  });

  const chunks: Uint8Array[] = [];
  const finished = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Uint8Array) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });

  const writer = new InvoicePdfWriter(pdf, doc, title);
  writer.drawFirstPageHeader();
  writer.drawLines();
  writer.drawTotals();
  writer.drawNotes();
  writer.drawFooters();
  pdf.end();
  return finished;
}

class InvoicePdfWriter {
  private current: TextStyle = STYLE.body;
  private isInLineTable = false;

  constructor(private readonly pdf: Pdf, private readonly doc: InvoiceDocument, private readonly title: string) {
    // Fires for our own page breaks and for pdfkit's when a very long description flows over.
    pdf.on('pageAdded', () => this.drawContinuationHeader());
  }

  private use(style: TextStyle): Pdf {
    this.current = style;
    return this.pdf.font(style.font).fontSize(style.size).fillColor(style.color);
  }

  /** Single line at an absolute position; never wraps, never starts a page. */
  private textAt(text: string, x: number, y: number, style: TextStyle): void {
    this.use(style).text(toPdfText(text), x, y, { lineBreak: false });
  }

  private textRight(text: string, right: number, y: number, style: TextStyle): void {
    const value = toPdfText(text);
    this.use(style);
    this.pdf.text(value, right - this.pdf.widthOfString(value), y, { lineBreak: false });
  }

  /** Wrapped text; returns the y below it. */
  private paragraph(text: string, x: number, y: number, width: number, style: TextStyle, multiline = false): number {
    this.use(style).text(toPdfText(text, { multiline }), x, y, { width, lineGap: 1 });
    return this.pdf.y;
  }

  private rule(y: number, from = LEFT, to = RIGHT, color = COLOR.rule, width = 0.5): void {
    this.pdf.save().moveTo(from, y).lineTo(to, y).lineWidth(width).strokeColor(color).stroke().restore();
  }

  private ensureSpace(height: number): void {
    if (this.pdf.y + height > CONTENT_BOTTOM) this.pdf.addPage();
  }

  drawFirstPageHeader(): void {
    const { seller, buyer } = this.doc;
    const isCreditNote = this.doc.kind === 'credit_note';

    // Seller block, top right, aligned with the information block below.
    const blockX = 125 * MM;
    const blockWidth = RIGHT - blockX;
    let y = this.paragraph(seller.name, blockX, 16 * MM, blockWidth, STYLE.sellerName);
    y = this.paragraph([seller.street, `${seller.postalCode} ${seller.city}`].join('\n'), blockX, y + 2, blockWidth, STYLE.value, true);
    this.paragraph([`Tel. ${seller.phone}`, seller.email].join('\n'), blockX, y + 4, blockWidth, STYLE.label, true);

    // DIN 5008 form B: return address in the window's top zone, then the recipient.
    const windowX = LEFT;
    const windowWidth = 80 * MM;
    const senderLine = [seller.name, seller.street, `${seller.postalCode} ${seller.city}`].join(' · ');
    y = this.paragraph(senderLine, windowX, 50 * MM, windowWidth, STYLE.senderLine);
    this.rule(y + 0.5, windowX, windowX + Math.min(windowWidth, this.pdf.widthOfString(toPdfText(senderLine))), COLOR.muted, 0.3);
    const recipient = [
      buyer.company,
      buyer.name,
      buyer.street,
      `${buyer.postalCode} ${buyer.city}`,
      countryName(buyer.countryCode),
    ].filter((part): part is string => Boolean(part && part.trim()));
    this.paragraph(recipient.join('\n'), windowX, 56 * MM, windowWidth, STYLE.address, true);

    // Information block (DIN 5008: 125 mm from the left, same height as the address).
    const infoX = 120 * MM;
    const labelWidth = 30 * MM;
    const valueX = infoX + labelWidth;
    const rows: [string, string][] = [
      [isCreditNote ? 'Gutschriftsnummer' : 'Rechnungsnummer', this.doc.number],
      [isCreditNote ? 'Gutschriftsdatum' : 'Rechnungsdatum', formatDate(this.doc.issueDate)],
      ...(isCreditNote
        ? [['Zu Rechnung', this.doc.correctsNumber ?? '–'] as [string, string]]
        : [['Fälligkeitsdatum', formatDate(this.doc.dueDate)] as [string, string]]),
      ['Leistungszeitraum', `${formatDate(this.doc.periodStart)} – ${formatDate(this.doc.periodEnd)}`],
      ['Kundennummer', String(buyer.customerNumber)],
      ['Bestellnummer', this.doc.orderNumber],
      ['Ihre USt-IdNr.', buyer.vatId ?? ''],
      ['Unsere MWST-Nr.', swissVatNumberOf(this.doc) ?? ''],
    ].filter(([, value]) => (value ?? '').trim() !== '') as [string, string][];
    y = 56 * MM;
    for (const [label, value] of rows) {
      this.textAt(label, infoX, y, STYLE.label);
      y = Math.max(y + 12, this.paragraph(value, valueX, y, RIGHT - valueX, STYLE.value) + 1.5);
    }

    // Subject line.
    y = Math.max(y, 100 * MM);
    y = this.paragraph(this.title, LEFT, y, WIDTH, STYLE.title);
    if (isCreditNote) {
      y = this.paragraph(`Korrektur zu Rechnung ${this.doc.correctsNumber ?? ''}`.trim(), LEFT, y + 2, WIDTH, STYLE.bodyBold);
    }
    const intro = isCreditNote
      ? 'Mit dieser Gutschrift schreiben wir Ihnen die folgenden Leistungen gut:'
      : 'Vielen Dank für Ihre Bestellung. Wir berechnen Ihnen die folgenden Leistungen:';
    this.pdf.y = this.paragraph(intro, LEFT, y + 10, WIDTH, STYLE.body) + 8;
  }

  private drawTableHeader(y: number): number {
    const height = 16;
    this.pdf.save().rect(LEFT, y, WIDTH, height).fill(COLOR.band).restore();
    const textY = y + 4.5;
    this.textAt('Pos.', COL.pos.x, textY, STYLE.tableHead);
    this.textAt('Bezeichnung', COL.item.x, textY, STYLE.tableHead);
    this.textRight('Menge', COL.quantity.x + COL.quantity.width, textY, STYLE.tableHead);
    this.textRight('Einzelpreis netto', COL.unitPrice.x + COL.unitPrice.width, textY, STYLE.tableHead);
    this.textRight('Gesamt netto', COL.total.x + COL.total.width, textY, STYLE.tableHead);
    return y + height;
  }

  private drawContinuationHeader(): void {
    const { x, y } = this.pdf;
    const style = this.current;
    this.textAt(`${this.title} · Fortsetzung`, LEFT, 18 * MM, STYLE.label);
    this.textRight(this.doc.seller.name, RIGHT, 18 * MM, STYLE.label);
    this.rule(18 * MM + 12);
    if (this.isInLineTable) this.drawTableHeader(CONTINUATION_TOP - 18);
    this.use(style);
    this.pdf.x = x;
    this.pdf.y = y;
  }

  drawLines(): void {
    this.ensureSpace(16 + 40);
    this.pdf.y = this.drawTableHeader(this.pdf.y) + 2;
    this.isInLineTable = true;
    this.doc.lines.forEach((line, index) => this.drawLine(line, index));
    this.isInLineTable = false;
  }

  private drawLine(line: InvoiceLine, index: number): void {
    const name = toPdfText(line.name);
    const description = toPdfText(line.description, { multiline: true }).trim();
    const itemWidth = COL.item.width;

    this.use(STYLE.body);
    const nameHeight = this.pdf.heightOfString(name || ' ', { width: itemWidth, lineGap: 1 });
    this.use(STYLE.small);
    const descriptionHeight = description ? this.pdf.heightOfString(description, { width: itemWidth, lineGap: 1 }) + 2 : 0;
    const rowHeight = ROW_PADDING + nameHeight + descriptionHeight + ROW_PADDING;
    const pageRoom = CONTENT_BOTTOM - CONTINUATION_TOP;
    // A row taller than a whole page starts where it is and lets the description flow over.
    this.ensureSpace(rowHeight <= pageRoom ? rowHeight : ROW_PADDING + nameHeight + 3 * STYLE.small.size);

    const top = this.pdf.y + ROW_PADDING;
    this.textAt(line.id || String(index + 1), COL.pos.x, top, STYLE.body);
    this.textRight(formatQuantity(line), COL.quantity.x + COL.quantity.width, top, STYLE.body);
    this.textRight(money(line.unitPriceCents), COL.unitPrice.x + COL.unitPrice.width, top, STYLE.body);
    this.textRight(money(line.netCents), COL.total.x + COL.total.width, top, STYLE.body);
    let y = this.paragraph(name, COL.item.x, top, itemWidth, STYLE.body);
    if (description) y = this.paragraph(description, COL.item.x, y + 2, itemWidth, STYLE.small, true);
    const bottom = y + ROW_PADDING - 1;
    this.rule(bottom);
    this.pdf.y = bottom;
  }

  drawTotals(): void {
    const { totals, payment } = this.doc;
    const isCreditNote = this.doc.kind === 'credit_note';
    const card = payment.card;
    const paidLabel = `${isCreditNote ? 'Bereits erstattet' : 'Bereits bezahlt'}${card ? ` (Kreditkarte ${card.brand.toUpperCase()} •••• ${card.last4})` : ''}`;
    const labelX = RIGHT - 290;
    const valueRight = COL.total.x + COL.total.width;
    const lineHeight = 15;

    this.ensureSpace(6 * lineHeight + 20);
    let y = this.pdf.y + 10;
    const row = (label: string, cents: number, bold = false) => {
      this.textAt(label, labelX, y, bold ? STYLE.bodyBold : STYLE.body);
      this.textRight(money(cents), valueRight, y, bold ? STYLE.bodyBold : STYLE.body);
      y += lineHeight;
    };
    // Issue 24: the tax line follows the document's category. Reverse charge (AE) and "not subject to
    // German VAT" (O) charge none: no "zzgl. 0 % USt.", but the zero amount and, below, the reason.
    const category = taxCategoryOf(this.doc);
    const taxLabel = category === 'AE' ? 'Umsatzsteuer (Reverse Charge)'
      : category === 'O' ? 'Umsatzsteuer (nicht im Inland steuerbar)'
        : `zzgl. ${formatPercent(this.doc.vatPercent)} ${swissVatNumberOf(this.doc) ? 'MWST (Schweiz)' : 'USt.'}`;
    row('Nettobetrag', totals.netCents);
    row(taxLabel, totals.vatCents);
    this.rule(y - 3, labelX, RIGHT, COLOR.text, 0.6);
    y += 2;
    row(category === 'S' ? 'Gesamtbetrag (brutto)' : 'Gesamtbetrag', totals.grossCents, true);
    if (totals.prepaidCents !== 0) row(paidLabel, -totals.prepaidCents);
    this.rule(y - 3, labelX, RIGHT, COLOR.text, 0.6);
    this.rule(y - 1.5, labelX, RIGHT, COLOR.text, 0.6);
    y += 2;
    row(isCreditNote ? 'Erstattungsbetrag' : 'Offener Betrag', totals.dueCents, true);
    this.pdf.y = y + 8;
  }

  drawNotes(): void {
    // The tax notes first: what §14a UStG and the decision require the document to say.
    const notes = [...taxNotesOf(this.doc), ...this.doc.notes];
    if (this.doc.kind === 'invoice' && this.doc.totals.dueCents > 0) {
      notes.push(`Bitte zahlen Sie den offenen Betrag bis zum ${formatDate(this.doc.dueDate)}.`);
      const bank = this.doc.payment.meansCode === '58' ? this.doc.payment.bank : null;
      if (bank) {
        notes.push(`Bankverbindung: ${bank.holder}, ${bank.bankName}, IBAN ${groupIban(bank.iban)}, BIC ${bank.bic}. Verwendungszweck: ${this.doc.number}`);
      }
    }
    const paidAt = this.doc.payment.paidAt ? new Date(this.doc.payment.paidAt) : null;
    if (paidAt && !Number.isNaN(paidAt.getTime()) && this.doc.totals.prepaidCents !== 0) {
      notes.push(this.doc.kind === 'credit_note'
        ? `Erstattung veranlasst am ${berlinDate.format(paidAt)}, Referenz ${this.doc.payment.reference}.`
        : `Zahlungseingang am ${berlinDate.format(paidAt)}, Referenz ${this.doc.payment.reference}.`);
    }
    for (const note of notes) {
      this.use(STYLE.body);
      this.ensureSpace(this.pdf.heightOfString(toPdfText(note, { multiline: true }).split('\n')[0] ?? ' ', { width: WIDTH }) + 4);
      this.pdf.y = this.paragraph(note, LEFT, this.pdf.y, WIDTH, STYLE.body, true) + 4;
    }
  }

  drawFooters(): void {
    const { seller } = this.doc;
    const range = this.pdf.bufferedPageRange();
    const columns: { width: number; lines: string[]; bold?: boolean }[] = [
      { width: 112, lines: [seller.name, seller.street, `${seller.postalCode} ${seller.city}`], bold: true },
      { width: 118, lines: [`Tel. ${seller.phone}`, `E-Mail ${seller.email}`] },
      // "Amtsgericht Frankfurt am Main, HRB 123456" reads best as court and number on two lines.
      { width: 130, lines: [managingDirectorLine(seller.managingDirector), ...seller.register.split(/,\s*(?=[^,]*$)/)] },
      { width: WIDTH - 112 - 118 - 130, lines: [`USt-IdNr. ${seller.vatId}`, seller.taxNumber ? `Steuernummer ${seller.taxNumber}` : ''] },
    ];
    for (let i = 0; i < range.count; i++) {
      this.pdf.switchToPage(range.start + i);
      this.textRight(`Seite ${i + 1} von ${range.count}`, RIGHT, FOOTER_TOP - 14, STYLE.label);
      this.rule(FOOTER_TOP - 3);
      let x = LEFT;
      for (const column of columns) {
        const [first = '', ...rest] = column.lines.filter(Boolean);
        // A fixed height makes pdfkit cut off instead of starting a new page below the margin.
        const options = { width: column.width - 6, height: 11 * MM, lineGap: 0.5, ellipsis: true };
        this.use(column.bold ? STYLE.footerBold : STYLE.footer).text(toPdfText(first), x, FOOTER_TOP, options);
        if (rest.length) this.use(STYLE.footer).text(toPdfText(rest.join('\n'), { multiline: true }), x, this.pdf.y, options);
        x += column.width;
      }
    }
  }
}
