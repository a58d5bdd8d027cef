/**
 * Unicode TR 39 §5.1 "single script" for a domain label: every character that belongs to a script
 * (Common and Inherited ones such as digits and the hyphen do not count) must share one, with the
 * TR's augmented sets: Han with Hiragana and Katakana is Japanese, Han with Hangul Korean, Han with
 * Bopomofo Chinese. `pаypal` with a Cyrillic `а` mixes Latin and Cyrillic and is refused (issue 21).
 * Script_Extensions is used, so characters shared by several scripts fit each of them.
 */
const SCRIPTS = [
  'Latin', 'Greek', 'Cyrillic', 'Armenian', 'Hebrew', 'Arabic', 'Syriac', 'Thaana', 'Devanagari', 'Bengali', 'Gurmukhi',
  'Gujarati', 'Oriya', 'Tamil', 'Telugu', 'Kannada', 'Malayalam', 'Sinhala', 'Thai', 'Lao', 'Tibetan', 'Myanmar',
  'Georgian', 'Hangul', 'Ethiopic', 'Cherokee', 'Khmer', 'Mongolian', 'Hiragana', 'Katakana', 'Bopomofo', 'Han',
] as const;
const matchers = SCRIPTS.map((script) => ({ script, re: new RegExp(`\\p{Script_Extensions=${script}}`, 'u') }));
const NEUTRAL = /[\p{Script=Common}\p{Script=Inherited}]/u;

function scriptsOf(char: string): Set<string> {
  const found = new Set<string>();
  for (const { script, re } of matchers) if (re.test(char)) found.add(script);
  if (found.size === 0) found.add(`other:${char}`);
  if (found.has('Han')) ['Jpan', 'Kore', 'Hanb'].forEach((s) => found.add(s));
  if (found.has('Hiragana') || found.has('Katakana')) found.add('Jpan');
  if (found.has('Hangul')) found.add('Kore');
  if (found.has('Bopomofo')) found.add('Hanb');
  return found;
}

/** True when the readable (Unicode) label uses letters of more than one script. */
export function mixesScripts(label: string): boolean {
  let common: Set<string> | undefined;
  for (const char of label) {
    if (NEUTRAL.test(char)) continue;
    const own = scriptsOf(char);
    common = common ? new Set([...common].filter((s) => own.has(s))) : own;
    if (common.size === 0) return true;
  }
  return false;
}
