/**
 * Domain name conversion shared by the hosting forms (normaliseDomain) and the domain search
 * (parseDomainSearch): one IDN conversion for both, so "müller.de" is the same name everywhere.
 */

/** WHATWG URL, present in browsers and Node; the contract compiles without DOM or Node types. */
declare const URL: new (input: string) => { hostname: string };

/**
 * The ASCII (punycode) form of a lower-cased host name as browsers compute it (UTS 46): Umlaute become
 * `xn--…` labels, full-width characters are mapped. null when it cannot be a host name at all (spaces,
 * URL delimiters, invalid punycode). Label rules (length, hyphens, allowed characters) are the caller's.
 */
export function hostnameToAscii(text: string): string | null {
  if (!text || /[\s/:@?#\\]/.test(text)) return null;
  try {
    return new URL(`http://${text}`).hostname;
  } catch {
    return null;
  }
}

const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;

/** RFC 3492 decoding of one label's punycode part (after `xn--`); null when it is not valid punycode. */
function decodePunycode(input: string): string | null {
  const output: number[] = [];
  const basic = input.lastIndexOf('-');
  for (let j = 0; j < Math.max(basic, 0); j++) {
    const c = input.charCodeAt(j);
    if (c >= 0x80) return null;
    output.push(c);
  }
  let n = 128;
  let bias = 72;
  let i = 0;
  const digit = (c: number) => (c - 48 < 10 ? c - 22 : c - 65 < 26 ? c - 65 : c - 97 < 26 ? c - 97 : BASE);
  for (let index = basic > 0 ? basic + 1 : 0; index < input.length;) {
    const oldi = i;
    for (let w = 1, k = BASE; ; k += BASE) {
      if (index >= input.length) return null;
      const d = digit(input.charCodeAt(index++));
      if (d >= BASE) return null;
      i += d * w;
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (d < t) break;
      w *= BASE - t;
    }
    const length = output.length + 1;
    let delta = i - oldi;
    delta = oldi === 0 ? Math.floor(delta / 700) : delta >> 1;
    delta += Math.floor(delta / length);
    let k = 0;
    while (delta > ((BASE - T_MIN) * T_MAX) >> 1) {
      delta = Math.floor(delta / (BASE - T_MIN));
      k += BASE;
    }
    bias = Math.floor(k + ((BASE - T_MIN + 1) * delta) / (delta + 38));
    n += Math.floor(i / length);
    i %= length;
    if (n > 0x10ffff) return null;
    output.splice(i++, 0, n);
  }
  return String.fromCodePoint(...output);
}

/** The readable form of an ASCII domain name: `xn--mller-kva.de` → `müller.de` (labels that do not decode stay). */
export function domainToUnicode(ascii: string): string {
  return ascii.split('.').map((label) => (label.startsWith('xn--') ? decodePunycode(label.slice(4)) ?? label : label)).join('.');
}
