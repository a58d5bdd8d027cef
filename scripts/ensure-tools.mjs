// Tools the test suite needs from Debian: Chromium for the browser journeys (Playwright's own download
// is not reachable here) and Java, Saxon-HE and xmllint for the official XRechnung validator
// (tools/xrechnung/validate). Installs what is missing; does nothing when everything is there.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const has = (cmd) => {
  try {
    execSync(`command -v ${cmd}`, { stdio: 'ignore', shell: '/bin/sh' });
    return true;
  } catch {
    return false;
  }
};

const missing = [];
// The journeys run in Chromium's headless shell (e2e/playwright.config.ts); the full browser is only for
// Lighthouse (npm run bench:web).
if (!existsSync(process.env.E2E_CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell')) missing.push('chromium-headless-shell', 'fonts-dejavu-core');
if (!has('java')) missing.push('default-jre-headless');
if (!has('xmllint')) missing.push('libxml2-utils');
if (!existsSync(process.env.SAXON_JAR ?? '/usr/share/java/Saxon-HE.jar')) missing.push('libsaxonhe-java');

if (missing.length) {
  console.log(`Fehlende Test-Werkzeuge – installiere Debian-Pakete: ${missing.join(' ')} …`);
  const sudo = process.getuid && process.getuid() !== 0 ? 'sudo ' : '';
  execSync(`${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(' ')}`, { stdio: 'inherit' });
}
