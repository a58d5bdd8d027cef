/** The German month names, January first: for dates written out without Intl (a browser's first Intl formatter loads its locale data, issue 22). */
export const GERMAN_MONTHS = ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'] as const;
