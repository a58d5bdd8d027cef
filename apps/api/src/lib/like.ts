/** `%term%` for ILIKE, with the term's own wildcards (`%`, `_`, `\`) taken literally. */
export const containsPattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
