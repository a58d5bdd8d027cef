/**
 * A number in German notation ("1.234,5"), as `value.toLocaleString('de-DE', { minimumFractionDigits,
 * maximumFractionDigits })` prints it: dot grouping, decimal comma, at most that many decimals (Intl's
 * default: 3), trailing zeros only down to the minimum, halves rounded away from zero on the number's
 * shortest decimal form. Written out rather than
 * through Intl because a browser's first Intl formatter loads its locale data, about 30 ms of main thread
 * on a phone while a shop page hydrates (Lighthouse, issue 22). A unit test compares it with Intl.
 * A negative value that rounds to zero prints "0" (Intl: "-0").
 */
export function formatNumberDe(value: number, maxFractionDigits = 3, minFractionDigits = 0): string {
  if (!Number.isFinite(value)) return value.toLocaleString('de-DE');
  const shortest = String(Math.abs(value));
  // Beyond 1e21 or below 1e-6 JavaScript writes an exponent; such figures are not shown in the portal.
  if (shortest.includes('e')) return value.toLocaleString('de-DE', { minimumFractionDigits: minFractionDigits, maximumFractionDigits: maxFractionDigits });
  let [int, frac = ''] = shortest.split('.') as [string, string?];
  if (frac.length > maxFractionDigits) {
    const roundUp = frac.charCodeAt(maxFractionDigits) >= 53; // the first dropped digit is 5 or more
    frac = frac.slice(0, maxFractionDigits);
    if (roundUp) {
      const digits = `${int}${frac}`.split('').map(Number);
      let i = digits.length - 1;
      for (; i >= 0 && digits[i] === 9; i--) digits[i] = 0;
      if (i >= 0) digits[i]! += 1;
      else digits.unshift(1);
      const all = digits.join('');
      int = all.slice(0, all.length - frac.length);
      frac = all.slice(all.length - frac.length);
    }
  }
  frac = frac.replace(/0+$/, '').padEnd(minFractionDigits, '0');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const negative = value < 0 && /[1-9]/.test(int + frac);
  return `${negative ? '-' : ''}${grouped}${frac ? `,${frac}` : ''}`;
}
