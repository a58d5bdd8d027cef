import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageMeta } from '../../components/page-meta.tsx';
import { cn } from '../../lib/cn.ts';
import { paths } from '../../config/paths.ts';

const company = __COMPANY__;

const legalPages = [
  { to: paths.imprint, label: 'Impressum' },
  { to: paths.privacy, label: 'Datenschutzerklärung' },
  { to: paths.terms, label: 'AGB' },
] as const;

type LegalPath = (typeof legalPages)[number]['to'];

const linkClass = 'font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900';

function LegalLayout({ title, current, intro, children }: { title: string; current: LegalPath; intro?: ReactNode; children: ReactNode }) {
  return (
    <div className="bg-white">
      <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
        <nav aria-label="Rechtliche Informationen">
          <ul className="flex flex-wrap gap-2">
            {legalPages.map((page) => (
              <li key={page.to}>
                <Link
                  to={page.to}
                  aria-current={page.to === current ? 'page' : undefined}
                  className={cn(
                    'inline-flex min-h-9 items-center rounded-full px-4 text-sm font-medium transition-colors',
                    page.to === current ? 'bg-brand-600 text-white' : 'bg-slate-100 text-slate-700 hover:bg-slate-200',
                  )}
                >
                  {page.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <h1 className="mt-8 text-2xl font-bold tracking-tight text-slate-900 hyphens-auto sm:text-4xl">{title}</h1>
        {intro && <div className="mt-4 text-lg text-slate-600">{intro}</div>}
        <div className="mt-10 space-y-10 leading-7 text-slate-700">{children}</div>
      </div>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-3">
      <h2 className="text-xl font-semibold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}

function List({ children }: { children: ReactNode }) {
  return <ul className="list-disc space-y-1.5 pl-6 marker:text-slate-400">{children}</ul>;
}

function CompanyAddress() {
  return (
    <address className="not-italic">
      {company.name}<br />
      {company.street}<br />
      {company.zipCity}<br />
      {company.country}
    </address>
  );
}

const mailLink = <a className={linkClass} href={`mailto:${company.email}`}>{company.email}</a>;

export function ImpressumPage() {
  return (
    <LegalLayout title="Impressum" current={paths.imprint} intro="Angaben gemäß § 5 Digitale-Dienste-Gesetz (DDG)">
      <PageMeta title="Impressum" description={`Impressum und Anbieterkennzeichnung der ${company.name} gemäß § 5 DDG.`} />
      <Section title="Anbieter">
        <CompanyAddress />
      </Section>
      <Section title="Vertreten durch">
        <p>Geschäftsführer: {company.managingDirector}</p>
      </Section>
      <Section title="Kontakt">
        <p>
          Telefon: <a className={linkClass} href={`tel:${company.phone.replace(/[^+\d]/g, '')}`}>{company.phone}</a><br />
          E-Mail: {mailLink}
        </p>
      </Section>
      <Section title="Registereintrag">
        <p>Eintragung im Handelsregister.<br />Registergericht und Registernummer: {company.register}</p>
      </Section>
      <Section title="Umsatzsteuer">
        <p>
          Umsatzsteuer-Identifikationsnummer gemäß § 27a Umsatzsteuergesetz: {company.vatId}<br />
          Steuernummer: {company.taxNumber}
        </p>
      </Section>
      <Section title="Verantwortlich für den Inhalt nach § 18 Abs. 2 MStV">
        <p>{company.managingDirector}<br />{company.street}<br />{company.zipCity}</p>
      </Section>
      <Section title="Verbraucherstreitbeilegung">
        <p>Wir sind nicht bereit und nicht verpflichtet, an Streitbeilegungsverfahren vor einer Verbraucherschlichtungsstelle teilzunehmen.</p>
      </Section>
      <Section title="Haftung für Inhalte">
        <p>
          Als Diensteanbieter sind wir gemäß § 7 Abs. 1 DDG für eigene Inhalte auf diesen Seiten nach den allgemeinen Gesetzen verantwortlich. Nach §§ 8 bis 10 DDG sind wir als Diensteanbieter jedoch nicht verpflichtet, übermittelte oder gespeicherte fremde Informationen zu überwachen oder nach Umständen zu forschen, die auf eine rechtswidrige Tätigkeit hinweisen.
        </p>
        <p>
          Verpflichtungen zur Entfernung oder Sperrung der Nutzung von Informationen nach den allgemeinen Gesetzen bleiben hiervon unberührt. Eine diesbezügliche Haftung ist jedoch erst ab dem Zeitpunkt der Kenntnis einer konkreten Rechtsverletzung möglich. Bei Bekanntwerden entsprechender Rechtsverletzungen werden wir diese Inhalte umgehend entfernen.
        </p>
      </Section>
      <Section title="Haftung für Links">
        <p>
          Unser Angebot enthält gegebenenfalls Links zu externen Websites Dritter, auf deren Inhalte wir keinen Einfluss haben. Für diese fremden Inhalte übernehmen wir keine Gewähr; verantwortlich ist stets der jeweilige Anbieter oder Betreiber der Seiten. Bei Bekanntwerden von Rechtsverletzungen werden wir derartige Links umgehend entfernen.
        </p>
      </Section>
      <Section title="Urheberrecht">
        <p>
          Die durch uns erstellten Inhalte und Werke auf diesen Seiten unterliegen dem deutschen Urheberrecht. Die Vervielfältigung, Bearbeitung, Verbreitung und jede Art der Verwertung außerhalb der Grenzen des Urheberrechts bedürfen der schriftlichen Zustimmung des jeweiligen Autors bzw. Erstellers.
        </p>
      </Section>
      <p>
        Informationen zur Verarbeitung Ihrer Daten finden Sie in unserer <Link className={linkClass} to={paths.privacy}>Datenschutzerklärung</Link>, die Vertragsbedingungen in unseren <Link className={linkClass} to={paths.terms}>Allgemeinen Geschäftsbedingungen</Link>.
      </p>
    </LegalLayout>
  );
}

export function DatenschutzPage() {
  return (
    <LegalLayout
      title="Datenschutzerklärung"
      current={paths.privacy}
      intro="Der Schutz Ihrer personenbezogenen Daten ist uns wichtig. Nachfolgend informieren wir Sie gemäß Art. 13 und 14 der Datenschutz-Grundverordnung (DSGVO) darüber, welche Daten wir verarbeiten, zu welchen Zwecken und welche Rechte Ihnen zustehen."
    >
      <PageMeta title="Datenschutzerklärung" description={`Informationen zur Verarbeitung personenbezogener Daten durch die ${company.name} gemäß DSGVO.`} />
      <Section title="1. Verantwortlicher">
        <p>Verantwortlich für die Datenverarbeitung im Sinne von Art. 4 Nr. 7 DSGVO ist:</p>
        <CompanyAddress />
        <p>Vertreten durch den Geschäftsführer {company.managingDirector}<br />E-Mail: {mailLink}<br />Telefon: {company.phone}</p>
      </Section>
      <Section title="2. Rechtsgrundlagen der Verarbeitung">
        <p>Wir verarbeiten personenbezogene Daten nur, soweit eine Rechtsgrundlage dies erlaubt. In Betracht kommen insbesondere:</p>
        <List>
          <li>Art. 6 Abs. 1 lit. a DSGVO – Ihre Einwilligung,</li>
          <li>Art. 6 Abs. 1 lit. b DSGVO – die Erfüllung eines Vertrags oder vorvertraglicher Maßnahmen,</li>
          <li>Art. 6 Abs. 1 lit. c DSGVO – die Erfüllung rechtlicher Pflichten, etwa steuerrechtlicher Aufbewahrungspflichten,</li>
          <li>Art. 6 Abs. 1 lit. f DSGVO – unsere berechtigten Interessen, etwa am sicheren Betrieb unserer Systeme.</li>
        </List>
      </Section>
      <Section title="3. Bereitstellung der Website und Server-Logdateien">
        <p>Bei jedem Aufruf unserer Website verarbeitet unser Server automatisch Informationen, die Ihr Browser übermittelt:</p>
        <List>
          <li>IP-Adresse des anfragenden Geräts,</li>
          <li>Datum und Uhrzeit des Zugriffs,</li>
          <li>aufgerufene Seite bzw. Datei und übertragene Datenmenge,</li>
          <li>Referrer-URL sowie Browsertyp und Betriebssystem (User-Agent).</li>
        </List>
        <p>
          Die Verarbeitung ist erforderlich, um die Website auszuliefern und die Sicherheit und Stabilität unserer Systeme zu gewährleisten, etwa zur Abwehr von Angriffen (Art. 6 Abs. 1 lit. f DSGVO). Die Logdaten werden nach spätestens 14 Tagen gelöscht, sofern sie nicht zur Aufklärung eines konkreten Sicherheitsvorfalls benötigt werden.
        </p>
      </Section>
      <Section title="4. Kundenkonto und Registrierung">
        <p>
          Für die Nutzung unserer Produkte legen Sie ein Kundenkonto an. Dabei verarbeiten wir Ihren Namen, Ihre E-Mail-Adresse und Ihr Passwort, das ausschließlich als kryptografischer Hash gespeichert wird. Zur Bestätigung Ihrer E-Mail-Adresse senden wir Ihnen einen Bestätigungscode. Rechtsgrundlage ist Art. 6 Abs. 1 lit. b DSGVO.
        </p>
        <p>Zum Schutz Ihres Kontos protokollieren wir Anmeldevorgänge und können Sicherheitsfunktionen wie eine Zwei-Faktor-Authentifizierung anbieten (Art. 6 Abs. 1 lit. b und f DSGVO).</p>
      </Section>
      <Section title="5. Bestellungen und Zahlungsabwicklung">
        <p>
          Wenn Sie ein Produkt bestellen, verarbeiten wir die für die Vertragsdurchführung und Abrechnung erforderlichen Daten, etwa Rechnungsanschrift, bestellte Leistungen, Laufzeiten und Zahlungsstatus (Art. 6 Abs. 1 lit. b und c DSGVO).
        </p>
        <p>
          Die Zahlung wickeln wir über externe Zahlungsdienstleister ab. Zahlungsdaten wie Kreditkartennummern geben Sie direkt auf der Bezahlseite des jeweiligen Dienstleisters ein; wir erhalten lediglich die Bestätigung über den Zahlungseingang und zur Zuordnung notwendige Angaben. Für die Verarbeitung durch den Zahlungsdienstleister gelten zusätzlich dessen Datenschutzhinweise.
        </p>
      </Section>
      <Section title="6. Kontakt und Support-Tickets">
        <p>
          Wenn Sie uns per E-Mail oder über das Ticket-System kontaktieren, verarbeiten wir Ihre Angaben und den Inhalt Ihrer Anfrage, um Ihr Anliegen zu bearbeiten. Rechtsgrundlage ist Art. 6 Abs. 1 lit. b DSGVO, soweit Ihre Anfrage mit einem Vertrag zusammenhängt, im Übrigen Art. 6 Abs. 1 lit. f DSGVO.
        </p>
      </Section>
      <Section title="7. Speicherung von Informationen in Ihrem Browser">
        <p>
          Nach der Anmeldung speichern wir ein Anmelde-Token im lokalen Speicher (Local Storage) Ihres Browsers, damit Sie angemeldet bleiben. Diese Speicherung ist für den von Ihnen gewünschten Dienst unbedingt erforderlich (§ 25 Abs. 2 Nr. 2 TDDDG). Das Token wird bei der Abmeldung entfernt.
        </p>
        <p>Wir setzen keine Tracking- oder Marketing-Cookies und keine Analyse-Werkzeuge ein und binden keine Inhalte von Drittanbietern wie externe Schriftarten oder Videos ein.</p>
      </Section>
      <Section title="8. Empfänger und Auftragsverarbeitung">
        <p>
          Wir geben Ihre Daten nur weiter, wenn dies zur Vertragserfüllung erforderlich ist, eine gesetzliche Pflicht besteht oder Sie eingewilligt haben. Empfänger können insbesondere Rechenzentrumsbetreiber, Zahlungsdienstleister und Dienstleister für den E-Mail-Versand sein. Mit Dienstleistern, die Daten in unserem Auftrag verarbeiten, haben wir Verträge gemäß Art. 28 DSGVO geschlossen.
        </p>
      </Section>
      <Section title="9. Übermittlung in Drittländer">
        <p>
          Eine Übermittlung in Länder außerhalb der Europäischen Union bzw. des Europäischen Wirtschaftsraums findet grundsätzlich nicht statt. Sollte dies im Einzelfall erforderlich sein, erfolgt sie nur unter den Voraussetzungen der Art. 44 ff. DSGVO, etwa auf Grundlage eines Angemessenheitsbeschlusses oder von Standardvertragsklauseln.
        </p>
      </Section>
      <Section title="10. Speicherdauer">
        <p>
          Wir speichern personenbezogene Daten nur so lange, wie es für den jeweiligen Zweck erforderlich ist. Daten Ihres Kundenkontos löschen wir nach Beendigung des Vertragsverhältnisses, soweit keine gesetzlichen Aufbewahrungspflichten entgegenstehen. Rechnungen und Buchungsbelege bewahren wir gemäß den handels- und steuerrechtlichen Vorschriften (§ 257 HGB, § 147 AO, § 14b UStG) acht Jahre auf, Handels- und Geschäftsbriefe sechs Jahre, jeweils ab dem Ende des Kalenderjahres.
        </p>
      </Section>
      <Section title="11. Ihre Rechte">
        <p>Sie haben gegenüber uns folgende Rechte hinsichtlich Ihrer personenbezogenen Daten:</p>
        <List>
          <li>Recht auf Auskunft (Art. 15 DSGVO),</li>
          <li>Recht auf Berichtigung (Art. 16 DSGVO),</li>
          <li>Recht auf Löschung (Art. 17 DSGVO),</li>
          <li>Recht auf Einschränkung der Verarbeitung (Art. 18 DSGVO),</li>
          <li>Recht auf Datenübertragbarkeit (Art. 20 DSGVO),</li>
          <li>Recht auf Widerruf einer erteilten Einwilligung mit Wirkung für die Zukunft (Art. 7 Abs. 3 DSGVO).</li>
        </List>
        <p>Wenden Sie sich dazu einfach an {mailLink}. Außerdem haben Sie das Recht, sich bei einer Datenschutz-Aufsichtsbehörde über die Verarbeitung Ihrer Daten zu beschweren (Art. 77 DSGVO).</p>
      </Section>
      <Section title="12. Widerspruchsrecht">
        <p className="rounded-lg border border-slate-200 bg-slate-50 p-4">
          Soweit wir Ihre Daten auf Grundlage berechtigter Interessen (Art. 6 Abs. 1 lit. f DSGVO) verarbeiten, können Sie aus Gründen, die sich aus Ihrer besonderen Situation ergeben, jederzeit Widerspruch gegen die Verarbeitung einlegen (Art. 21 DSGVO). Wir verarbeiten die Daten dann nicht mehr, es sei denn, wir können zwingende schutzwürdige Gründe nachweisen, die Ihre Interessen überwiegen, oder die Verarbeitung dient der Geltendmachung, Ausübung oder Verteidigung von Rechtsansprüchen.
        </p>
      </Section>
      <Section title="13. Datensicherheit">
        <p>Diese Website nutzt aus Sicherheitsgründen eine TLS-Verschlüsselung. Darüber hinaus schützen wir Ihre Daten durch technische und organisatorische Maßnahmen gegen Verlust, Manipulation und unberechtigten Zugriff.</p>
      </Section>
      <Section title="14. Änderungen dieser Datenschutzerklärung">
        <p>
          Wir passen diese Datenschutzerklärung an, wenn sich unsere Datenverarbeitung oder die Rechtslage ändert. Es gilt die jeweils auf dieser Seite veröffentlichte Fassung. Angaben zum Anbieter finden Sie im <Link className={linkClass} to={paths.imprint}>Impressum</Link>, die Vertragsbedingungen in unseren <Link className={linkClass} to={paths.terms}>AGB</Link>.
        </p>
      </Section>
    </LegalLayout>
  );
}

export function AgbPage() {
  return (
    <LegalLayout title="Allgemeine Geschäftsbedingungen" current={paths.terms} intro={`Allgemeine Geschäftsbedingungen der ${company.name} für Hosting- und Serverdienstleistungen`}>
      <PageMeta title="AGB" description={`Allgemeine Geschäftsbedingungen der ${company.name} für Root Server, Webhosting, Cloud-Speicher, Virtual Data Center und Domains.`} />
      <Section title="§ 1 Geltungsbereich">
        <p>
          (1) Diese Allgemeinen Geschäftsbedingungen (AGB) gelten für alle Verträge zwischen der {company.name}, {company.street}, {company.zipCity} (nachfolgend „Anbieter“), und ihren Kunden über die Bereitstellung von Root Servern, Webhosting, Cloud-Speicher, Virtual Data Centern, Domains und damit verbundenen Leistungen.
        </p>
        <p>(2) Abweichende Bedingungen des Kunden werden nicht Vertragsbestandteil, es sei denn, der Anbieter stimmt ihrer Geltung ausdrücklich in Textform zu.</p>
        <p>(3) Verbraucher im Sinne dieser AGB ist jede natürliche Person, die ein Rechtsgeschäft zu Zwecken abschließt, die überwiegend weder ihrer gewerblichen noch ihrer selbständigen beruflichen Tätigkeit zugerechnet werden können (§ 13 BGB).</p>
      </Section>
      <Section title="§ 2 Vertragsschluss">
        <p>
          (1) Die Darstellung der Produkte auf der Website stellt kein bindendes Angebot dar. Mit Abschluss des Bestellvorgangs gibt der Kunde ein verbindliches Angebot ab. Der Vertrag kommt zustande, wenn der Anbieter die Bestellung bestätigt oder die Leistung bereitstellt.
        </p>
        <p>(2) Voraussetzung für eine Bestellung ist ein Kundenkonto mit bestätigter E-Mail-Adresse. Der Kunde ist verpflichtet, bei der Registrierung wahrheitsgemäße Angaben zu machen.</p>
      </Section>
      <Section title="§ 3 Leistungsumfang und Verfügbarkeit">
        <p>(1) Der Umfang der Leistungen ergibt sich aus der jeweiligen Produktbeschreibung zum Zeitpunkt der Bestellung.</p>
        <p>
          (2) Der Anbieter gewährleistet eine Verfügbarkeit seiner Infrastruktur von 99,5 % im Jahresmittel. Ausgenommen sind angekündigte Wartungsarbeiten sowie Ausfälle, die der Anbieter nicht zu vertreten hat, insbesondere durch höhere Gewalt, Störungen in Netzen Dritter oder durch Handlungen des Kunden.
        </p>
        <p>(3) Der Anbieter ist berechtigt, Wartungsarbeiten durchzuführen. Planbare Wartungen werden nach Möglichkeit rechtzeitig vorher angekündigt und in nutzungsarme Zeiten gelegt.</p>
      </Section>
      <Section title="§ 4 Pflichten des Kunden">
        <p>(1) Der Kunde darf die Leistungen nicht für rechtswidrige Zwecke nutzen. Insbesondere ist es untersagt, rechtswidrige Inhalte zu speichern oder zu verbreiten, Spam zu versenden oder Angriffe auf andere Systeme durchzuführen.</p>
        <p>(2) Der Kunde hält seine Zugangsdaten geheim und informiert den Anbieter unverzüglich, wenn Anhaltspunkte für einen Missbrauch bestehen.</p>
        <p>(3) Für die Sicherung seiner Daten ist der Kunde selbst verantwortlich, soweit nicht ausdrücklich eine Datensicherung durch den Anbieter vereinbart ist.</p>
      </Section>
      <Section title="§ 5 Preise und Zahlung">
        <p>(1) Es gelten die zum Zeitpunkt der Bestellung angegebenen Preise.</p>
        <p>(2) Die Rechnungsstellung erfolgt monatlich im Voraus. Rechnungen sind innerhalb von 14 Tagen nach Rechnungsdatum ohne Abzug zur Zahlung fällig.</p>
        <p>(3) Gerät der Kunde mit einer Zahlung in Verzug, ist der Anbieter berechtigt, die betroffenen Leistungen nach vorheriger Ankündigung in Textform zu sperren. Die Pflicht zur Zahlung der vereinbarten Vergütung bleibt während der Sperrung bestehen.</p>
      </Section>
      <Section title="§ 6 Preisänderungen">
        <p>
          (1) Der Anbieter kann die Preise für laufende Verträge mit angemessener Frist ändern, wenn sich die Kosten für die Erbringung der Leistung, etwa für Energie, Hardware oder Netzanbindung, verändern. Änderungen teilt der Anbieter dem Kunden mindestens sechs Wochen vor ihrem Wirksamwerden in Textform mit.
        </p>
        <p>
          (2) Die Preisänderung wird wirksam, wenn der Kunde ihr nicht innerhalb von 4 Wochen nach Zugang der Mitteilung widerspricht. Im Falle eines Widerspruchs kann jede Partei den Vertrag zum Zeitpunkt des Wirksamwerdens der Änderung kündigen. Der Anbieter weist den Kunden in der Mitteilung auf die Widerspruchsfrist und die Folgen eines unterlassenen Widerspruchs hin.
        </p>
      </Section>
      <Section title="§ 7 Vertragslaufzeit und Kündigung">
        <p>(1) Die Mindestvertragslaufzeit beträgt 12 Monate, sofern bei der Bestellung keine andere Laufzeit vereinbart wurde.</p>
        <p>(2) Der Vertrag verlängert sich automatisch um jeweils 12 Monate, wenn er nicht mit einer Frist von 3 Monaten vor Ablauf der jeweiligen Vertragslaufzeit gekündigt wird.</p>
        <p>(3) Abweichend von Absatz 2 verlängert sich ein Vertrag mit einem Verbraucher nach Ablauf der Mindestlaufzeit auf unbestimmte Zeit; er kann dann jederzeit mit einer Frist von einem Monat gekündigt werden.</p>
        <p>(4) Das Recht zur außerordentlichen Kündigung aus wichtigem Grund bleibt unberührt. Ein wichtiger Grund liegt für den Anbieter insbesondere vor, wenn der Kunde mit der Zahlung mehr als 30 Tage in Verzug ist oder schwerwiegend gegen § 4 verstößt.</p>
        <p>(5) Kündigungen bedürfen der Textform.</p>
      </Section>
      <Section title="§ 8 Haftung">
        <p>(1) Der Anbieter haftet unbeschränkt für Vorsatz und grobe Fahrlässigkeit sowie für Schäden aus der Verletzung des Lebens, des Körpers oder der Gesundheit und nach dem Produkthaftungsgesetz.</p>
        <p>(2) Bei leicht fahrlässiger Verletzung wesentlicher Vertragspflichten ist die Haftung auf den vertragstypischen, vorhersehbaren Schaden begrenzt. Im Übrigen ist die Haftung für leichte Fahrlässigkeit ausgeschlossen.</p>
      </Section>
      <Section title="§ 9 Datenschutz">
        <p>Der Anbieter verarbeitet personenbezogene Daten des Kunden gemäß der <Link className={linkClass} to={paths.privacy}>Datenschutzerklärung</Link>.</p>
      </Section>
      <Section title="§ 10 Schlussbestimmungen">
        <p>(1) Es gilt das Recht der Bundesrepublik Deutschland unter Ausschluss des UN-Kaufrechts. Gegenüber Verbrauchern gilt diese Rechtswahl nur, soweit dadurch nicht der Schutz durch zwingende Bestimmungen des Staates ihres gewöhnlichen Aufenthalts entzogen wird.</p>
        <p>(2) Ist der Kunde Kaufmann, juristische Person des öffentlichen Rechts oder öffentlich-rechtliches Sondervermögen, ist Gerichtsstand der Sitz des Anbieters.</p>
        <p>(3) Sollten einzelne Bestimmungen dieser AGB unwirksam sein, bleibt die Wirksamkeit der übrigen Bestimmungen unberührt.</p>
        <p>Angaben zum Anbieter finden Sie im <Link className={linkClass} to={paths.imprint}>Impressum</Link>.</p>
      </Section>
    </LegalLayout>
  );
}
