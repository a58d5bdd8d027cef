import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as contract from '@hp/contract';
import * as domainTlds from '@hp/contract/domain-tlds';
import { findInSource, findInText, listFiles, textOfHtml, textsOfSource } from './german-texts.ts';

/*
 * The product says "Sie" everywhere and keeps none of the specification's spelling mistakes. This file
 * scans the texts of the sources; e2e/german.spec.ts scans the built (prerendered) pages.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sourceDirs = ['packages/contract/src', 'apps/api/src', 'apps/web/src'];
const isSource = (name: string) => /\.tsx?$/.test(name) && !/\.(test|spec)\.tsx?$/.test(name) && !name.endsWith('.d.ts');

/** Every string of the exported message catalogues (`messages`, `…Messages`), functions called with placeholders. */
function catalogueTexts(): { where: string; text: string }[] {
  const out: { where: string; text: string }[] = [];
  for (const [name, catalogue] of Object.entries({ ...contract, ...domainTlds })) {
    if (!/^(messages|\w+Messages)$/.test(name) || typeof catalogue !== 'object' || catalogue === null) continue;
    for (const [key, value] of Object.entries(catalogue)) {
      const where = `${name}.${key}`;
      if (typeof value === 'string') out.push({ where, text: value });
      if (typeof value === 'function') {
        const text: unknown = value(...Array.from({ length: value.length }, () => 'X'));
        if (typeof text === 'string') out.push({ where, text });
      }
    }
  }
  return out;
}

describe('German texts', () => {
  it('the message catalogues address the user as "Sie" and keep none of the spec\'s spelling mistakes', () => {
    const texts = catalogueTexts();
    expect(texts.length).toBeGreaterThan(400);
    expect(texts.flatMap(({ where, text }) => findInText(text, where))).toEqual([]);
  });

  it('no string literal or JSX text of the contract, the API or the web app (tests excluded) says "du" or repeats a spec typo', () => {
    const files = sourceDirs.flatMap((dir) => listFiles(path.join(repoRoot, dir), isSource));
    expect(files.length).toBeGreaterThan(300);
    const findings = files.flatMap((file) => findInSource(fs.readFileSync(file, 'utf8'), path.relative(repoRoot, file)));
    expect(findings).toEqual([]);
  });

  it('flags the spec\'s informal address and typos that the product used to show', () => {
    const old = [
      'Um dein Server neu zu starten musst der Online sein.',
      'Deine Regeln wurde erstellt',
      'Das Progamm nginx wurde installiert.',
      'Du hast das Ticket Übernommen.',
      'Ticket wurde bereits von jemand anderen Übernommen.',
      'Du musst Angemeldet sein das du dir einen Server bestellen kannst',
      'Keine IP-Addressen',
      'Deine PDF-Rechnung wird erstellt, bitte habe etwas Geduld',
      'Dein Server restartet bereits bitte warten Sie auf den Neustart.',
      'Die Passwörter Stimmen nicht Überein bitte Prüfen Sie Ihre Eingaben.',
      'Fehler beim Neuinstallieren ihres Systeams bitte wenden sie sich an den Support!',
      'Es ist eine Fehler ausgetaucht bei der Erstellung der Firewall-Regel...',
      'Es ist ein Fehler aufgetreten. Bitte versuchen sie es Später erneut.',
      'Es ist ein Grundlegender Fehler aufgetreten.',
      'Es ist ein System fehler aufgetreten.',
      'Interner Server Fehler',
      'Fehler bei der schließen des Tickets.',
      'Fehler bei der Übernehmen des Tickets.',
      'Fehler bei Installation',
      'PHP Version ändern',
      'Für eine Standard Website ist keine Installation nötig.',
      'Bitte warte 5 Sekunden vor erneutem Versuch.',
      'Wie geht es dir?',
      'Prüfe deinen Posteingang.',
    ];
    for (const text of old) expect(findInText(text, 'old'), text).not.toEqual([]);
  });

  it('leaves correct German, English words and code tokens alone', () => {
    const fine = [
      'Um Ihren Server neu zu starten, muss er online sein.',
      'Sie haben das Ticket übernommen.',
      'Übernommen von Erika',
      'Sie müssen angemeldet sein, um einen Server bestellen zu können.',
      'Die Firewall-Regeln wurden inzwischen geändert.',
      'Bitte versuchen Sie es später erneut.',
      'Deinstallation von Dublin-Direktor Duden',
      'Das Programm wurde deinstalliert. Diese IP-Adressen sind frei.',
      'Bitte warten Sie 5 Sekunden. Bitte eine ganze Zahl.',
      'phpMyAdmin and the panel login are absolute addresses',
    ];
    for (const text of fine) expect(findInText(text, 'fine'), text).toEqual([]);
  });

  it('reads string literals, template literals and JSX text, and skips module names and code tokens', () => {
    const source = [
      "import dir from './dein';",
      "const a = 'dir';",
      'const b = `Das Progamm ${name} wurde installiert.`;',
      "const c = <p title=\"Deine Daten\">Du hast {count} Server</p>;",
      "const d = { 'du': 1, label: 'Bitte warte kurz, dann geht es weiter.' };",
      "// Du: comments are not shown to anyone",
    ].join('\n');
    const texts = textsOfSource(source, 'sample.tsx').map((t) => t.text.trim());
    expect(texts).toEqual(['Das Progamm … wurde installiert.', 'Deine Daten', 'Du hast', 'Server', 'Bitte warte kurz, dann geht es weiter.']);
    expect(findInSource(source, 'sample.tsx').map((f) => [f.where, f.rule])).toEqual([
      ['sample.tsx:3', 'typo "Progamm"'],
      ['sample.tsx:4', 'informal address (du)'],
      ['sample.tsx:4', 'informal address (du)'],
      ['sample.tsx:5', 'informal imperative'],
    ]);
  });

  it('takes the visible text and the labels of a built page, not its scripts', () => {
    const html = '<html><head><title>Start</title><meta name="description" content="Deine Server"><script>var dir="du"</script></head><body><h1>Hallo</h1><p>Du hast &amp; Sie haben</p><img alt="Logo"></body></html>';
    const text = textOfHtml(html);
    expect(text).toContain('Du hast & Sie haben');
    expect(text).toContain('Deine Server');
    expect(text).not.toContain('var dir');
  });
});
