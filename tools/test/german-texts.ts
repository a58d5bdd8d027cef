// The product addresses its users as "Sie" and keeps none of the specification's spelling mistakes. These
// rules are shared by the source scan (tools/test/german.test.ts) and the scan of the built pages
// (e2e/german.spec.ts), so both refuse the same things.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// \b is ASCII-only in JavaScript ("für" would end at the ü), so words are delimited by Unicode letters.
const word = (alternatives: string) => new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives})(?![\\p{L}\\p{N}_])`, 'iu');

export const rules: readonly { name: string; pattern: RegExp }[] = [
  { name: 'informal address (du)', pattern: word('du|dich|dir|dein|deine|deinen|deinem|deiner|deines') },
  // Imperatives in the du form after "Bitte" ("Bitte warte 5 Sekunden", "bitte habe etwas Geduld").
  { name: 'informal imperative', pattern: new RegExp(`bitte\\s+${word('warte|prüfe|gib|wähle|melde|versuche|habe|sei|öffne|trage|schreibe|kontaktiere|wende|bestätige|lade|klicke|beachte|gehe').source}`, 'iu') },
  { name: 'typo "Progamm"', pattern: /Progamm/u },
  // English "addresses" is not a German misspelling.
  { name: 'typo "Addresse(n)"', pattern: /addresse(?!s)/iu },
  // Capitalised in the middle of a sentence ("Du hast das Ticket Übernommen."); a heading or a label that
  // starts with "Übernommen" is fine.
  { name: 'capitalised "Übernommen" mid-sentence', pattern: /[\p{L}\p{N},]\s+Übernommen/u },
  { name: 'capitalised "Angemeldet sein"', pattern: /Angemeldet sein/u },
  { name: 'grammar "Regeln wurde"', pattern: /Regeln wurde(?!\p{L})/u },
  // The specification's other mistakes, corrected once and kept out.
  {
    name: 'another spelling mistake of the specification',
    pattern: /Systeams|ausgetaucht|restartet|System fehler|Server Fehler|[\p{Ll},]\s+(?:Später|Grundlegender|Stimmen|Überein|Prüfen Sie)(?!\p{L})|bei der (?:schließen|Übernehmen)|von jemand anderen(?!\p{L})|Fehler bei Installation|PHP Version|Standard Website/u,
  },
];

export interface Finding { where: string; rule: string; text: string }

export function findInText(text: string, where: string): Finding[] {
  return rules.filter((r) => r.pattern.test(text)).map((r) => ({ where, rule: r.name, text: text.replace(/\s+/g, ' ').trim() }));
}

// A literal without spaces made only of lowercase ASCII, digits and punctuation is a code token ('dir',
// 'du-form', '/api/x'), never a sentence shown to a user.
const isCodeToken = (text: string) => /^[a-z0-9_.:/#@=+-]*$/.test(text);

function isModuleSpecifier(node: ts.Node): boolean {
  const parent = node.parent;
  return (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) && parent.moduleSpecifier === node
    || ts.isExternalModuleReference(parent)
    || ts.isCallExpression(parent) && parent.expression.kind === ts.SyntaxKind.ImportKeyword
    || ts.isLiteralTypeNode(parent) && ts.isImportTypeNode(parent.parent);
}

/** The texts of a TypeScript/TSX source: string literals, template literals (holes as "…") and JSX text. */
export function textsOfSource(source: string, fileName: string): { line: number; text: string }[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: { line: number; text: string }[] = [];
  const add = (node: ts.Node, text: string) => {
    if (text.trim() === '' || isCodeToken(text)) return;
    out.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, text });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (!isModuleSpecifier(node)) add(node, node.text);
      return;
    }
    if (ts.isTemplateExpression(node)) {
      add(node, node.head.text + node.templateSpans.map((s) => `…${s.literal.text}`).join(''));
      node.templateSpans.forEach((s) => visit(s.expression));
      return;
    }
    if (ts.isJsxText(node)) {
      add(node, node.text);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

export function findInSource(source: string, fileName: string): Finding[] {
  return textsOfSource(source, fileName).flatMap(({ line, text }) => findInText(text, `${fileName}:${line}`));
}

export function listFiles(dir: string, accept: (name: string) => boolean): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && accept(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/** The visible text and the user-facing attributes of a built HTML page (scripts and styles left out). */
export function textOfHtml(html: string): string {
  const attributes = [...html.matchAll(/\s(?:alt|title|placeholder|aria-label|content)="([^"]*)"/g)].map((m) => m[1]);
  const body = html
    .replace(/<script\b[\s\S]*?<\/script>/gi, ' ')
    .replace(/<style\b[\s\S]*?<\/style>/gi, ' ')
    .replace(/<[^>]+>/g, '\n');
  return [body, ...attributes].join('\n')
    .replace(/&nbsp;|&#160;/g, ' ')
    .replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}
