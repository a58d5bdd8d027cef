import type { InvoiceDocument, InvoiceLine } from '../../db/schema/invoice-document.ts';
import { swissVatNumberOf, taxCategoryOf, taxExemptionOf, taxNotesOf } from './invoice-tax-text.ts';

/**
 * XRechnung 3.0 (CIUS of EN 16931) in the UBL 2.1 syntax: an `Invoice` (type 380) or a `CreditNote`
 * (type 381). The child order of every UBL aggregate is fixed by the XSD, so each builder below lists
 * its children in schema order; `tools/xrechnung/validate` checks the result offline.
 */

const CUSTOMIZATION_ID = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0';
const PROFILE_ID = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
const NS = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
} as const;

// ── tiny XML builder ────────────────────────────────────────────────────────────────────────────────

interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string | null;
}
type Child = XmlElement | null;

/** An element with child elements; left out when none of its children are present. */
function node(name: string, ...children: Child[]): XmlElement | null {
  const present = children.filter((c): c is XmlElement => c !== null);
  return present.length ? { name, attrs: {}, children: present, text: null } : null;
}

/** An element with text content; left out when the value is empty, so optional fields simply vanish. */
function leaf(name: string, value: string | number | null | undefined, attrs: Record<string, string> = {}): XmlElement | null {
  if (value === null || value === undefined) return null;
  const text = dropIllegalXmlChars(String(value)).trim();
  return text ? { name, attrs, children: [], text } : null;
}

const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** XML 1.0 Char production: most C0 controls, lone surrogates and U+FFFE/U+FFFF are illegal even escaped, so they are dropped. */
function isXmlChar(codePoint: number): boolean {
  return codePoint === 0x9 || codePoint === 0xa || codePoint === 0xd
    || (codePoint >= 0x20 && codePoint <= 0xd7ff)
    || (codePoint >= 0xe000 && codePoint <= 0xfffd)
    || codePoint >= 0x10000;
}

function dropIllegalXmlChars(value: string): string {
  let out = '';
  for (const char of value) if (isXmlChar(char.codePointAt(0) ?? 0)) out += char;
  return out;
}

export function escapeXml(value: string): string {
  return dropIllegalXmlChars(value).replace(/[&<>"']/g, (c) => XML_ENTITIES[c] ?? c);
}

function serialize(el: XmlElement, depth: number): string {
  const indent = '  '.repeat(depth);
  const attrs = Object.entries(el.attrs).map(([k, v]) => ` ${k}="${escapeXml(v)}"`).join('');
  if (el.text !== null) return `${indent}<${el.name}${attrs}>${escapeXml(el.text)}</${el.name}>\n`;
  return `${indent}<${el.name}${attrs}>\n${el.children.map((c) => serialize(c, depth + 1)).join('')}${indent}</${el.name}>\n`;
}

// ── values ──────────────────────────────────────────────────────────────────────────────────────────

/** Integer cents → "1234.56" (exactly two decimals, no float arithmetic). */
export function formatAmount(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Betrag ist keine ganze Zahl von Cent: ${cents}`);
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** 3 → "3", 0.5 → "0.5", never exponent notation. */
function formatDecimal(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`Ungültige Zahl: ${value}`);
  return Number.isInteger(value) ? String(value) : value.toFixed(6).replace(/0+$/, '').replace(/\.$/, '');
}

/**
 * BT-146. The snapshot's unit price is rounded to cents; where quantity × unit price misses the line
 * total by more than the validator's 0.02 slack (PEPPOL-EN16931-R120), the price is given in
 * ten-thousandths of a euro derived from the line total instead.
 */
function formatUnitPrice(line: InvoiceLine): string {
  if (Math.abs(line.unitPriceCents * line.quantity - line.netCents) <= 2 || line.quantity <= 0) {
    return formatAmount(line.unitPriceCents);
  }
  const tenThousandths = Math.round((line.netCents * 100) / line.quantity);
  const abs = Math.abs(tenThousandths);
  return `${tenThousandths < 0 ? '-' : ''}${Math.trunc(abs / 10_000)}.${String(abs % 10_000).padStart(4, '0')}`;
}

function formatDateDe(isoDate: string): string {
  const [y, m, d] = isoDate.split('-');
  return `${d}.${m}.${y}`;
}

const berlinDate = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', day: '2-digit', month: '2-digit', year: 'numeric' });
/** A timestamp (or YYYY-MM-DD) as the calendar date in Germany, dd.mm.yyyy. */
function formatBerlinDate(timestamp: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? timestamp : berlinDate.format(date);
}

// ── document ────────────────────────────────────────────────────────────────────────────────────────

export function renderXRechnung(doc: InvoiceDocument): string {
  const isCreditNote = doc.kind === 'credit_note';
  const root = isCreditNote ? 'CreditNote' : 'Invoice';
  const cur = { currencyID: doc.currency };
  const amount = (name: string, cents: number) => leaf(name, formatAmount(cents), cur);

  for (const line of doc.lines) {
    // The snapshot carries one VAT total, so it can only describe documents with a single rate.
    if (line.vatPercent !== doc.vatPercent) {
      throw new Error(`Position ${line.id} hat ${line.vatPercent} % USt., das Dokument ${doc.vatPercent} %.`);
    }
  }

  // Issue 24: the order's tax decision gives the category. S charges VAT at the rate; AE (reverse
  // charge) and O (not subject to German VAT) charge none and name the exemption (BR-AE-10, BR-O-10).
  const category = taxCategoryOf(doc);
  const exemption = taxExemptionOf(doc);
  const vatCategory = (name: string, withReason = false) =>
    node(name, leaf('cbc:ID', category),
      // BR-O-05: a line not subject to VAT has no rate; the breakdown keeps 0 (BR-DE-14 wants BT-119).
      category === 'O' && !withReason ? null : leaf('cbc:Percent', formatDecimal(doc.vatPercent)),
      withReason && exemption ? leaf('cbc:TaxExemptionReasonCode', exemption.code) : null,
      withReason && exemption ? leaf('cbc:TaxExemptionReason', exemption.text) : null,
      node('cac:TaxScheme', leaf('cbc:ID', 'VAT')));

  const address = (party: InvoiceDocument['seller'] | InvoiceDocument['buyer']) =>
    node('cac:PostalAddress',
      leaf('cbc:StreetName', party.street),
      leaf('cbc:CityName', party.city),
      leaf('cbc:PostalZone', party.postalCode),
      node('cac:Country', leaf('cbc:IdentificationCode', party.countryCode.toUpperCase())));

  const { seller, buyer } = doc;
  // BT-31: the VAT identifier the charged tax belongs to. Swiss MWST: the seller's Swiss number (the
  // validator accepts its CH prefix, BR-CO-09). O: none at all, nor the buyer's (BR-O-02); the
  // Steuernummer (BT-32) then identifies the seller.
  const swissVatNumber = swissVatNumberOf(doc);
  const sellerVatId = category === 'O' ? null : swissVatNumber ? swissVatNumber.replace(/[\s.-]/g, '').toUpperCase() : seller.vatId;
  const buyerVatId = category === 'O' ? null : buyer.vatId;
  const supplier = node('cac:AccountingSupplierParty', node('cac:Party',
    leaf('cbc:EndpointID', seller.email, { schemeID: 'EM' }),
    node('cac:PartyName', leaf('cbc:Name', seller.name)),
    address(seller),
    sellerVatId ? node('cac:PartyTaxScheme', leaf('cbc:CompanyID', sellerVatId), node('cac:TaxScheme', leaf('cbc:ID', 'VAT'))) : null,
    // BT-32: the national tax number travels in a second tax scheme that is not VAT.
    seller.taxNumber ? node('cac:PartyTaxScheme', leaf('cbc:CompanyID', seller.taxNumber), node('cac:TaxScheme', leaf('cbc:ID', 'FC'))) : null,
    node('cac:PartyLegalEntity',
      leaf('cbc:RegistrationName', seller.name),
      leaf('cbc:CompanyID', seller.register),
      leaf('cbc:CompanyLegalForm', seller.managingDirector ? `Geschäftsführer: ${stripRole(seller.managingDirector)}` : null)),
    node('cac:Contact',
      leaf('cbc:Name', seller.managingDirector.trim() || 'Buchhaltung'),
      leaf('cbc:Telephone', seller.phone),
      leaf('cbc:ElectronicMail', seller.email))));

  const customer = node('cac:AccountingCustomerParty', node('cac:Party',
    leaf('cbc:EndpointID', buyer.email, { schemeID: 'EM' }),
    node('cac:PartyIdentification', leaf('cbc:ID', buyer.customerNumber)),
    buyer.company ? node('cac:PartyName', leaf('cbc:Name', buyer.company)) : null,
    address(buyer),
    buyerVatId ? node('cac:PartyTaxScheme', leaf('cbc:CompanyID', buyerVatId), node('cac:TaxScheme', leaf('cbc:ID', 'VAT'))) : null,
    node('cac:PartyLegalEntity', leaf('cbc:RegistrationName', buyer.company || buyer.name)),
    node('cac:Contact',
      leaf('cbc:Name', buyer.company ? buyer.name : null),
      leaf('cbc:ElectronicMail', buyer.email))));

  const card = doc.payment.card;
  const bank = doc.payment.meansCode === '58' ? doc.payment.bank ?? null : null;
  const paymentMeans = node('cac:PaymentMeans',
    leaf('cbc:PaymentMeansCode', doc.payment.meansCode, { name: MEANS_NAME[doc.payment.meansCode] }),
    leaf('cbc:PaymentID', doc.payment.reference),
    card && !bank ? node('cac:CardAccount',
      leaf('cbc:PrimaryAccountNumberID', card.last4),
      leaf('cbc:NetworkID', card.brand.toUpperCase()),
      leaf('cbc:HolderName', card.holder)) : null,
    // BR-DE-23: a credit transfer names the account to pay into (BG-17).
    bank ? node('cac:PayeeFinancialAccount',
      leaf('cbc:ID', bank.iban),
      leaf('cbc:Name', bank.holder),
      node('cac:FinancialInstitutionBranch', leaf('cbc:ID', bank.bic))) : null);

  const lines = doc.lines.map((line) => node(isCreditNote ? 'cac:CreditNoteLine' : 'cac:InvoiceLine',
    leaf('cbc:ID', line.id),
    leaf(isCreditNote ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', formatDecimal(line.quantity), { unitCode: line.unitCode }),
    amount('cbc:LineExtensionAmount', line.netCents),
    node('cac:Item',
      leaf('cbc:Description', line.description),
      leaf('cbc:Name', line.name),
      vatCategory('cac:ClassifiedTaxCategory')),
    node('cac:Price', leaf('cbc:PriceAmount', formatUnitPrice(line), cur))));

  const t = doc.totals;
  const document = node(root,
    leaf('cbc:CustomizationID', CUSTOMIZATION_ID),
    leaf('cbc:ProfileID', PROFILE_ID),
    leaf('cbc:ID', doc.number),
    leaf('cbc:IssueDate', doc.issueDate),
    isCreditNote ? null : leaf('cbc:DueDate', doc.dueDate),
    leaf(isCreditNote ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode', isCreditNote ? '381' : '380'),
    ...[...taxNotesOf(doc), ...doc.notes].map((note) => leaf('cbc:Note', note)),
    leaf('cbc:DocumentCurrencyCode', doc.currency),
    leaf('cbc:BuyerReference', buyer.customerNumber),
    node('cac:InvoicePeriod', leaf('cbc:StartDate', doc.periodStart), leaf('cbc:EndDate', doc.periodEnd)),
    // Our order number is issued by the seller's shop, so it is the sales order reference (BT-14);
    // UBL requires an order ID, which EN 16931 fills with "NA" when there is no purchase order (BT-13).
    doc.orderNumber ? node('cac:OrderReference', leaf('cbc:ID', 'NA'), leaf('cbc:SalesOrderID', doc.orderNumber)) : null,
    isCreditNote ? node('cac:BillingReference', node('cac:InvoiceDocumentReference', leaf('cbc:ID', doc.correctsNumber))) : null,
    supplier,
    customer,
    paymentMeans,
    node('cac:PaymentTerms', leaf('cbc:Note', paymentTermsNote(doc))),
    node('cac:TaxTotal',
      amount('cbc:TaxAmount', t.vatCents),
      node('cac:TaxSubtotal',
        amount('cbc:TaxableAmount', t.netCents),
        amount('cbc:TaxAmount', t.vatCents),
        vatCategory('cac:TaxCategory', true))),
    node('cac:LegalMonetaryTotal',
      amount('cbc:LineExtensionAmount', t.netCents),
      amount('cbc:TaxExclusiveAmount', t.netCents),
      amount('cbc:TaxInclusiveAmount', t.grossCents),
      t.prepaidCents !== 0 ? amount('cbc:PrepaidAmount', t.prepaidCents) : null,
      amount('cbc:PayableAmount', t.dueCents)),
    ...lines);
  if (!document) throw new Error('unreachable: the document root always has children');
  document.attrs = { xmlns: NS[root], 'xmlns:cac': NS.cac, 'xmlns:cbc': NS.cbc };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${serialize(document, 0)}`;
}

const MEANS_NAME: Record<InvoiceDocument['payment']['meansCode'], string> = { '54': 'Kreditkarte', '58': 'SEPA-Überweisung', '97': 'Verrechnung' };

function paymentTermsNote(doc: InvoiceDocument): string {
  if (doc.payment.meansCode === '97') return 'Der Betrag wird mit der zugehörigen Rechnung verrechnet; bereits Gezahltes wird per Überweisung erstattet.';
  if (doc.payment.meansCode === '58') {
    return `Zahlbar ohne Abzug bis ${formatDateDe(doc.dueDate)} per Überweisung unter Angabe der Rechnungsnummer ${doc.number}.`;
  }
  const paidAt = doc.payment.paidAt ? ` am ${formatBerlinDate(doc.payment.paidAt)}` : '';
  if (doc.totals.dueCents === 0 && doc.totals.prepaidCents !== 0) {
    return doc.kind === 'credit_note'
      ? `Der Betrag wurde${paidAt} auf die Kreditkarte erstattet.`
      : `Bereits${paidAt} per Kreditkarte bezahlt.`;
  }
  return doc.kind === 'credit_note'
    ? 'Der Betrag wird auf die Kreditkarte erstattet.'
    : `Zahlbar bis ${formatDateDe(doc.dueDate)} per Kreditkarte.`;
}

/** "Max Mustermann (Geschäftsführer)" → "Max Mustermann" */
function stripRole(managingDirector: string): string {
  return managingDirector.replace(/\s*\(Geschäftsführer(in)?\)\s*$/i, '').trim();
}
