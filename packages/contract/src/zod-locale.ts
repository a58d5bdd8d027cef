import { z } from 'zod';

/**
 * zod's built-in messages in German, for the API and the browser alike (decision 010): a schema that
 * names no message of its own still fails with a German one. zod's German locale is the base; the few
 * messages it words for developers ("Zu klein: erwartet, dass string >=3 Zeichen hat", regex patterns)
 * are replaced by sentences a customer understands. Imported once, by the contract's index.
 */
const de = z.locales.de();

const typeNames: Record<string, string> = {
  string: 'Text', number: 'Zahl', nan: 'Zahl', bigint: 'Zahl', int: 'ganze Zahl', boolean: 'Ja/Nein-Wert', object: 'Objekt', array: 'Liste',
  date: 'Datum', null: 'kein Wert', undefined: 'kein Wert',
};
const typeName = (type: string) => typeNames[type] ?? type;
const receivedType = (input: unknown) => (input === null ? 'null' : Array.isArray(input) ? 'array' : typeof input === 'number' && Number.isNaN(input) ? 'nan' : typeof input);

export const germanError: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'Bitte füllen Sie alle Pflichtfelder aus.';
      return `Ungültige Eingabe: erwartet ${typeName(issue.expected)}, erhalten ${typeName(receivedType(issue.input))}.`;
    case 'too_small': {
      const n = issue.minimum.toString();
      if (issue.origin === 'string') return `Die Eingabe ist zu kurz (mindestens ${n} Zeichen).`;
      if (issue.origin === 'array' || issue.origin === 'set') return `Bitte geben Sie mindestens ${n} Einträge an.`;
      return `Der Wert ist zu klein (mindestens ${issue.inclusive ? n : `über ${n}`}).`;
    }
    case 'too_big': {
      const n = issue.maximum.toString();
      if (issue.origin === 'string') return `Die Eingabe ist zu lang (höchstens ${n} Zeichen).`;
      if (issue.origin === 'array' || issue.origin === 'set') return `Es sind höchstens ${n} Einträge erlaubt.`;
      return `Der Wert ist zu groß (höchstens ${issue.inclusive ? n : `unter ${n}`}).`;
    }
    case 'invalid_format':
      if (issue.format === 'regex') return 'Die Eingabe hat nicht das erwartete Format.';
      return undefined;
    default:
      return undefined;
  }
};

z.config({ localeError: (issue) => germanError(issue) ?? de.localeError(issue) });
