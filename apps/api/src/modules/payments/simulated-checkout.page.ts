import { COUNTRY_OPTIONS, formatEuro } from '@hp/contract';

/**
 * The simulated provider's hosted card page: plain server-rendered HTML with a form (no script), so it
 * behaves like a separate payment site. Styles carry the response's CSP nonce.
 */

export interface SimPageValues {
  name: string;
  street: string;
  zip: string;
  city: string;
  country: string;
  card: string;
  exp: string;
}

export const emptyValues: SimPageValues = { name: '', street: '', zip: '', city: '', country: 'DE', card: '', exp: '' };

/** Every country in German, the EU first, as the profile lists them (issue 24). */
const COUNTRIES: [string, string][] = COUNTRY_OPTIONS.map((o) => [o.code, o.label]);
export const SIM_COUNTRY_CODES = COUNTRIES.map(([code]) => code);

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const css = `
*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1f36;background:#f6f9fc}
main{display:grid;grid-template-columns:1fr;min-height:100vh}
@media(min-width:900px){main{grid-template-columns:1fr 1fr}}
.summary{background:#0a2540;color:#fff;padding:48px 32px}.summary-inner{max-width:420px;margin-left:auto}
.brand{font-weight:600;opacity:.85;display:flex;gap:8px;align-items:center}.badge{font-size:11px;background:#f5c542;color:#0a2540;border-radius:4px;padding:2px 6px;font-weight:700}
.amount{font-size:36px;font-weight:700;margin:24px 0 8px}.product{opacity:.85;line-height:1.5}
.hint{margin-top:32px;font-size:13px;background:rgba(255,255,255,.08);border-radius:8px;padding:12px 14px;line-height:1.6}
.hint code{background:rgba(255,255,255,.15);padding:1px 5px;border-radius:4px}
.pay{padding:48px 32px}.pay-inner{max-width:420px}
h1{font-size:20px;margin:0 0 20px}
label{display:block;font-size:13px;font-weight:600;margin:14px 0 6px;color:#3c4257}
input,select{width:100%;font:inherit;padding:10px 12px;border:1px solid #c9d1dc;border-radius:6px;background:#fff}
input:focus,select:focus{outline:3px solid #80b3ff;border-color:#3b82f6}
.row{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.errors{background:#fdecea;border:1px solid #f5c2c0;color:#a4161a;border-radius:8px;padding:10px 14px;margin-bottom:8px;font-size:14px}
.errors ul{margin:6px 0 0;padding-left:18px}
button{font:inherit;font-weight:600;border-radius:6px;padding:12px 16px;cursor:pointer;border:0}
.primary{width:100%;margin-top:22px;background:#635bff;color:#fff}.primary:hover{background:#544bf0}
.secondary{width:100%;margin-top:10px;background:transparent;color:#3c4257;border:1px solid #c9d1dc}
.secure{font-size:12px;color:#697386;margin-top:16px;text-align:center}
.done{max-width:480px;margin:80px auto;background:#fff;padding:32px;border-radius:12px;box-shadow:0 2px 12px rgba(0,0,0,.06)}
a{color:#635bff}`;

function layout(nonce: string, title: string, body: string) {
  return `<!doctype html><html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style nonce="${escapeHtml(nonce)}">${css}</style></head><body>${body}</body></html>`;
}

export function renderCheckoutPage(opts: {
  nonce: string;
  sessionId: string;
  merchant: string;
  amountCents: number;
  productName: string;
  email: string;
  values: SimPageValues;
  errors: string[];
}) {
  const v = opts.values;
  const field = (name: keyof SimPageValues, label: string, attrs: string) =>
    `<label for="${name}">${label}</label><input id="${name}" name="${name}" value="${escapeHtml(v[name])}" ${attrs}>`;
  const errors = opts.errors.length
    ? `<div class="errors" role="alert"><strong>Bitte prüfen Sie Ihre Angaben:</strong><ul>${opts.errors.map((e) => `<li>${escapeHtml(e)}</li>`).join('')}</ul></div>`
    : '';
  const options = COUNTRIES.map(([code, name]) => `<option value="${code}"${v.country === code ? ' selected' : ''}>${name}</option>`).join('');
  return layout(opts.nonce, `Bezahlen – ${opts.merchant}`, `<main>
<section class="summary" aria-label="Bestellübersicht"><div class="summary-inner">
<div class="brand">${escapeHtml(opts.merchant)} <span class="badge">TESTMODUS</span></div>
<p class="amount">${escapeHtml(formatEuro(opts.amountCents))}</p>
<p class="product">${escapeHtml(opts.productName)}</p>
<p class="product">Rechnung an ${escapeHtml(opts.email)}</p>
<div class="hint"><strong>Simulierte Zahlung</strong> – es wird kein Geld bewegt.<br>
Erfolgreich: <code>4242 4242 4242 4242</code><br>Abgelehnt: <code>4000 0000 0000 0002</code><br>
Beliebiges Ablaufdatum in der Zukunft, beliebige Prüfziffer.</div>
</div></section>
<section class="pay"><div class="pay-inner">
<h1>Mit Karte bezahlen</h1>
${errors}
<form method="post" action="/pay/sim/${escapeHtml(opts.sessionId)}" novalidate>
${field('card', 'Kartennummer', 'inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" required')}
<div class="row"><div>${field('exp', 'Gültig bis (MM/JJ)', 'autocomplete="cc-exp" placeholder="MM/JJ" required')}</div>
<div><label for="cvc">Prüfziffer (CVC)</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123" required></div></div>
${field('name', 'Name auf der Karte', 'autocomplete="cc-name" required')}
${field('street', 'Straße und Hausnummer', 'autocomplete="address-line1" required')}
<div class="row"><div>${field('zip', 'PLZ', 'autocomplete="postal-code" required')}</div><div>${field('city', 'Ort', 'autocomplete="address-level2" required')}</div></div>
<label for="country">Land</label><select id="country" name="country" autocomplete="country">${options}</select>
<button class="primary" type="submit" name="action" value="pay">Bezahlen ${escapeHtml(formatEuro(opts.amountCents))}</button>
<button class="secondary" type="submit" name="action" value="cancel" formnovalidate>Abbrechen</button>
</form>
<p class="secure">Simulierter Zahlungsanbieter von ${escapeHtml(opts.merchant)}</p>
</div></section></main>`);
}

export function renderClosedPage(nonce: string, merchant: string, text: string) {
  return layout(nonce, `Zahlung – ${merchant}`, `<div class="done"><h1>Diese Zahlung ist nicht mehr offen</h1><p>${escapeHtml(text)}</p><p><a href="/">Zur Startseite</a> · <a href="/dashboard/order">Meine Bestellungen</a></p></div>`);
}
