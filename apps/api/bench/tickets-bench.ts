/**
 * npm run bench:tickets — the support desk at scale (issue 10, ../shared/quality/performance.md):
 * 100,000 customers and 1,000,000 tickets on PostgreSQL; the staff overview with search, filter and
 * sort, the staff's own list, opening a ticket with 2,000 messages and a customer's own list each answer
 * with p95 ≤ 50 ms; the overview's statements use indexes (EXPLAIN, no Seq Scan on tickets).
 *
 * A script, not a timed test: it prints a table and exits non-zero when a target is missed.
 *
 * Database: BENCH_DATABASE_URL or TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres);
 * a throwaway database is created there and dropped at the end. PostgreSQL only: PGlite neither holds a
 * million rows in memory sensibly nor says anything about production plans.
 *   BENCH_REQUESTS     measured requests per case, sequential, after 20 warm-up requests (default 200)
 *   BENCH_KEEP=1       keep the seeded database (its URL is printed) …
 *   BENCH_REUSE=<url>  … and measure it again without seeding (pending migrations are applied)
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { eq, sql } from 'drizzle-orm';
import { StaffTicketListQuery } from '@hp/contract';
import { createTestContext } from '../test/harness.ts';
import { users } from '../src/db/schema/index.ts';
import { openSession } from '../src/modules/auth/sessions.ts';
import { findStaffTickets, staffTicketQueries } from '../src/modules/tickets/tickets.service.ts';

const TARGET_P95_MS = 50;
const CUSTOMERS = 100_000;
const TICKETS = 1_000_000;
const STAFF = 10;
const BIG_CHAT = 2_000;
const requests = Number(process.env.BENCH_REQUESTS ?? 200);
const reuseUrl = process.env.BENCH_REUSE;
const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

if (!/^postgres(ql)?:\/\//.test(reuseUrl ?? baseUrl)) {
  console.error(`Dieser Benchmark läuft nur auf PostgreSQL (BENCH_DATABASE_URL=postgres://…), nicht auf PGlite oder „${reuseUrl ?? baseUrl}“.`);
  process.exit(2);
}
process.env.TEST_DATABASE_URL = baseUrl;

// ------------------------------------------------------------------ seed data

// First names and surnames as usernames carry them (ASCII, umlauts spelled out). Surnames are drawn
// with a skew (frequent ones first), so a search for "mueller" matches thousands of customers and one
// for "xylander" a few hundred at most, roughly as in a German customer base.
const firstNames = ['thomas', 'michael', 'andreas', 'stefan', 'christian', 'markus', 'daniel', 'anna', 'julia', 'sabine',
  'tobias', 'laura', 'jan', 'lukas', 'katharina', 'felix', 'sarah', 'jonas', 'lisa', 'florian', 'sebastian', 'maria',
  'alexander', 'petra', 'matthias', 'martin', 'claudia', 'peter', 'frank', 'birgit', 'juergen', 'monika', 'uwe',
  'klaus', 'heike', 'wolfgang', 'nina', 'dieter', 'ursula', 'lena', 'sophie', 'hannah', 'johanna', 'marie', 'jana',
  'kerstin', 'ole', 'malte', 'till', 'enno', 'gesa', 'imke', 'wiebke', 'frauke', 'hauke', 'friedrich', 'hildegard',
  'waltraud', 'gottfried', 'detlef'];
const surnames = ['mueller', 'schmidt', 'schneider', 'fischer', 'weber', 'meyer', 'wagner', 'becker', 'schulz',
  'hoffmann', 'schaefer', 'koch', 'bauer', 'richter', 'klein', 'wolf', 'schroeder', 'neumann', 'schwarz', 'zimmermann',
  'braun', 'krueger', 'hofmann', 'hartmann', 'lange', 'schmitt', 'werner', 'schmitz', 'krause', 'meier', 'lehmann',
  'schmid', 'schulze', 'maier', 'koehler', 'herrmann', 'koenig', 'walter', 'mayer', 'huber', 'kaiser', 'fuchs',
  'peters', 'lang', 'scholz', 'moeller', 'weiss', 'jung', 'hahn', 'schubert', 'vogel', 'friedrich', 'keller',
  'guenther', 'frank', 'berger', 'winkler', 'roth', 'beck', 'lorenz', 'baumann', 'franke', 'albrecht', 'schuster',
  'simon', 'ludwig', 'boehm', 'winter', 'kraus', 'martin', 'schumacher', 'kraemer', 'vogt', 'stein', 'jaeger', 'otto',
  'sommer', 'gross', 'seidel', 'heinrich', 'brandt', 'haas', 'schreiber', 'graf', 'schulte', 'dietrich', 'ziegler',
  'kuhn', 'kuehn', 'pohl', 'engel', 'horn', 'busch', 'bergmann', 'voigt', 'sauer', 'arnold', 'pfeiffer',
  'oberdorfer', 'quandt', 'zwiebelhofer', 'xylander'];
const titles = ['Server startet nicht', 'Server nicht erreichbar', 'Frage zur Rechnung', 'Rechnung doppelt abgebucht',
  'Backup wiederherstellen', 'Backup schlägt fehl', 'DNS-Eintrag ändern', 'Reverse-DNS setzen', 'SSL-Zertifikat läuft ab',
  'E-Mail-Versand blockiert', 'Upgrade auf größeres Paket', 'Kündigung zum Monatsende', 'Festplatte voll',
  'Hohe CPU-Last', 'Netzwerk langsam', 'Port 25 freischalten', 'Neuinstallation gewünscht', 'Zugang zur Konsole',
  'Passwort vergessen', 'Zwei-Faktor-Anmeldung zurücksetzen', 'Zusätzliche IPv6-Adresse', 'Firewall-Regeln anpassen',
  'Datenbank startet nicht', 'Webseite lädt langsam', 'Zahlung per Lastschrift', 'Gutschrift für Ausfall',
  'Rechnungsadresse ändern', 'Snapshot erstellen', 'Traffic-Verbrauch zu hoch', 'DDoS-Angriff', 'Mailserver auf Blacklist',
  'Kernel-Update', 'Frage zur Windows-Lizenz', 'Umzug auf anderen Knoten', 'Minecraft-Server laggt',
  'TeamSpeak verbindet nicht', 'Ausfall seit heute früh', 'Mehr Arbeitsspeicher', 'Frage zum Vertrag', 'Sonstiges Anliegen'];

/**
 * Seeds with a few set-based statements (insert … select from generate_series), not row by row.
 * During the seed the tables' user triggers are off: they pg_notify every inserted ticket and message
 * for the live events (migration 0008), which nobody listens to here and which would queue a million
 * notifications. Secondary indexes are dropped and rebuilt afterwards (one sort per index instead of a
 * million incremental inserts, the GIN trigram index above all); foreign keys stay checked.
 */
async function seed(client: pg.Client) {
  await client.query(`set synchronous_commit = off; set maintenance_work_mem = '512MB'`);
  const seededTables = ['users', 'tickets', 'ticket_messages'];
  const { rows: indexes } = await client.query<{ name: string; def: string }>(`
    select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def from pg_index i
    where i.indrelid = any($1::regclass[]) and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`, [seededTables]);
  for (const index of indexes) await client.query(`drop index ${index.name}`);
  for (const table of seededTables) await client.query(`alter table ${table} disable trigger user`);
  await client.query('select setseed(0.42)');

  // Staff (the first is the one the benchmark signs in as) and the customer with many tickets.
  await client.query(`
    insert into users (username, email, password_hash, role, email_verified_at)
    select case when i = 1 then 'bench.staff' else 'support' || i end, 'support' || i || '@example.com', 'bench-dummy-hash',
           case when i = 2 then 'owner' else 'employee' end, now()
    from generate_series(1, ${STAFF}) i`);
  await client.query(`
    insert into users (username, email, password_hash, role, email_verified_at, created_at)
    select f || '.' || s || i, f || '.' || s || i || '@example.com', 'bench-dummy-hash', 'customer', now(), now() - random() * interval '5 years'
    from (
      select i, ($1::text[])[1 + floor(random() * array_length($1::text[], 1))::int] as f,
                ($2::text[])[1 + floor(power(random(), 1.6) * array_length($2::text[], 1))::int] as s
      from generate_series(1, ${CUSTOMERS - 1}) i
    ) n`, [firstNames, surnames]);
  await client.query(`insert into users (username, email, password_hash, role, email_verified_at) values ('bench.kunde', 'bench.kunde@example.com', 'bench-dummy-hash', 'customer', now())`);
  await client.query(`create temp table bench_customers as select row_number() over (order by customer_number) as rn, id from users where role = 'customer' and username <> 'bench.kunde'`);
  await client.query(`create temp table bench_staff as select row_number() over (order by customer_number) as rn, id from users where role <> 'customer'`);

  // Tickets over three years in creation order. The last 60 days hold most open work; older tickets
  // are closed but for a few forgotten ones. In progress: always held; open: 40 % held; closed: 95 %.
  // Types: technical 30 %, issue 20 %, question 20 %, problem 15 %, billing 10 %, other 5 %.
  const ticketSelect = (count: number, customerJoin: string) => `
    with base as materialized (
      select g, random() as r_status, random() as r_assign, random() as r_type, random() as r_title, random() as r_wait,
             random() as r_suffix, 1 + floor(random() * (select count(*) from bench_staff))::int as srn,
             1 + floor(random() * (select count(*) from bench_customers))::int as crn,
             now() - interval '3 years' * (1 - g::float8 / ${count}) - random() * interval '1 hour' as created
      from generate_series(1, ${count}) g
    ), s as (
      select *, case when created > now() - interval '60 days'
               then case when r_status < 0.45 then 'open' when r_status < 0.7 then 'in_progress' else 'closed' end
               else case when r_status < 0.012 then 'open' when r_status < 0.02 then 'in_progress' else 'closed' end end as st
      from base
    ), a as (
      select *, (st = 'in_progress' or (st = 'open' and r_assign < 0.4) or (st = 'closed' and r_assign < 0.95)) as held from s
    )
    select c.id, ($1::text[])[1 + floor(r_title * array_length($1::text[], 1))::int]
             || case when r_suffix < 0.4 then ' (vps-' || (1000 + floor(r_suffix * 20000)::int) || ')' else '' end,
           'Guten Tag, seit heute Morgen besteht das Problem. Bitte um Rückmeldung. Viele Grüße',
           case when r_type < 0.3 then 'technical' when r_type < 0.5 then 'issue' when r_type < 0.7 then 'question'
                when r_type < 0.85 then 'problem' when r_type < 0.95 then 'billing' else 'other' end,
           st, staff.id,
           created, least(now(), created + r_wait * interval '3 days'),
           case when st = 'open' or (st = 'in_progress' and r_wait < 0.5) then least(now(), created + r_wait * interval '1 day') end,
           case when held then least(now(), created + r_wait * interval '4 hours') end,
           case when st = 'closed' then least(now(), created + r_wait * interval '5 days') end
    from a ${customerJoin} left join bench_staff staff on held and staff.rn = a.srn`;
  const ticketColumns = '(customer_id, title, description, type, status, assignee_id, created_at, updated_at, waiting_since, first_response_at, closed_at)';
  await client.query(`
    insert into tickets ${ticketColumns}
    ${ticketSelect(TICKETS - 201, 'join bench_customers c on c.rn = a.crn')}`, [titles]);
  await client.query(`insert into tickets ${ticketColumns} ${ticketSelect(200, `cross join (select id from users where username = 'bench.kunde') c`)}`, [titles]);
  // The long chat: held by the signed-in staff member, 2,000 messages alternating customer and staff,
  // every tenth staff message an internal note.
  await client.query(`
    insert into tickets ${ticketColumns.replace(', closed_at', '')}
    select u.id, 'Langer Verlauf: Umzug mehrerer Server', 'Wir ziehen 40 Server um und haben laufend Fragen.', 'technical',
           'in_progress', s.id, now() - interval '90 days', now(), now() - interval '1 hour', now() - interval '89 days'
    from users u, users s where u.username = 'bench.kunde' and s.username = 'bench.staff'`);
  await client.query(`
    insert into ticket_messages (ticket_id, author_id, from_staff, internal, body, created_at)
    select t.id, case when k % 2 = 1 then t.customer_id else t.assignee_id end, k % 2 = 0, k % 20 = 0,
           'Nachricht ' || k || ': Der nächste Server ist umgezogen, bitte prüfen Sie die Erreichbarkeit.',
           t.created_at + k * interval '1 hour'
    from tickets t, generate_series(1, ${BIG_CHAT}) k where t.title = 'Langer Verlauf: Umzug mehrerer Server' order by k`);
  // The 100,000 newest other tickets get three messages each.
  await client.query(`
    insert into ticket_messages (ticket_id, author_id, from_staff, internal, body, created_at)
    select t.id, case when k = 2 and t.assignee_id is not null then t.assignee_id else t.customer_id end,
           k = 2 and t.assignee_id is not null, false, 'Nachricht ' || k || ' zum Ticket.', t.created_at + k * interval '2 hours'
    from (select id, customer_id, assignee_id, created_at from tickets where title <> 'Langer Verlauf: Umzug mehrerer Server'
          order by created_at desc limit 100000) t, generate_series(1, 3) k`);

  for (const table of seededTables) await client.query(`alter table ${table} enable trigger user`);
  for (const index of indexes) await client.query(index.def);
  // A settled database: statistics and the visibility map (index-only scans) as autovacuum leaves them.
  await client.query('vacuum analyze users, tickets, ticket_messages');
}

// ------------------------------------------------------------------ measure

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
interface Figure { name: string; p50: number; p95: number; p99: number; info: string }

/** Sequential timings after 20 warm-up calls: p50, p95, p99 in ms and the last result. */
async function timed<T>(call: () => Promise<T>): Promise<{ p50: number; p95: number; p99: number; last: T }> {
  let last = await call();
  for (let i = 1; i < 20; i++) last = await call();
  const times: number[] = [];
  for (let i = 0; i < requests; i++) {
    const start = performance.now();
    last = await call();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95), p99: quantile(times, 0.99), last };
}

async function measure(name: string, url: string, token: string): Promise<Figure> {
  const r = await timed(async () => {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${name}: ${res.status} ${body}`);
    return body;
  });
  const json = JSON.parse(r.last) as { total?: number; items?: unknown[]; tickets?: unknown[] };
  const info = json.total !== undefined ? `${json.items!.length} von ${json.total}` : json.items ? `${json.items.length} Nachr.` : json.tickets ? `${json.tickets.length} Tickets` : '';
  return { name, p50: r.p50, p95: r.p95, p99: r.p99, info };
}

// ------------------------------------------------------------------ run

const started = performance.now();
const ctx = await createTestContext('postgres', reuseUrl ? { databaseUrl: reuseUrl } : {});
const db = ctx.database.db;
const { rows: [current] } = (await db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] };
const dbUrl = new URL(baseUrl);
dbUrl.pathname = `/${current!.name}`;
const client = new pg.Client({ connectionString: reuseUrl ?? dbUrl.toString() });
await client.connect();
let failed = false;

try {
  const n = (await client.query<{ n: string }>('select count(*) as n from tickets')).rows[0]!.n;
  if (Number(n) === 0) {
    console.log(`Befülle ${current!.name}: ${CUSTOMERS.toLocaleString('de-DE')} Kunden, ${TICKETS.toLocaleString('de-DE')} Tickets …`);
    const t0 = performance.now();
    await seed(client);
    console.log(`Befüllt in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  } else {
    console.log(`Datenbank ${current!.name} wiederverwendet (${Number(n).toLocaleString('de-DE')} Tickets)\n`);
  }
  const { rows: [counts] } = await client.query<Record<string, string>>(`
    select (select count(*) from users where role = 'customer') as customers, (select count(*) from tickets) as tickets,
           (select count(*) from tickets where assignee_id is null and status <> 'closed') as queue,
           (select count(*) from ticket_messages) as messages`);
  console.log(`Kunden ${counts!.customers}, Tickets ${counts!.tickets} (davon in der Übersicht ${counts!.queue}), Nachrichten ${counts!.messages}\n`);

  const [staffUser] = await db.select().from(users).where(eq(users.username, 'bench.staff'));
  const [customerUser] = await db.select().from(users).where(eq(users.username, 'bench.kunde'));
  const staffToken = (await openSession(db, ctx.app.deps.secrets, staffUser!, 'bench')).token;
  const customerToken = (await openSession(db, ctx.app.deps.secrets, customerUser!, 'bench')).token;
  const { rows: [big] } = await client.query<{ id: string; middle: string }>(`
    select t.id, (select seq from ticket_messages m where m.ticket_id = t.id order by seq offset ${BIG_CHAT / 2} limit 1) as middle
    from tickets t where t.title = 'Langer Verlauf: Umzug mehrerer Server'`);

  // ---- EXPLAIN of the overview's statements, built by the service itself
  const explainCases: [string, 'unassigned' | 'mine', StaffTicketListQuery][] = [
    ['Suche häufig + Status + Sortierung', 'unassigned', { q: 'mueller', status: 'open', sort: '-createdAt' }],
    ['Suche selten + Art + Wartezeit', 'unassigned', { q: 'xylander', type: 'technical', sort: 'waiting' }],
    ['Filter Status + Art, Sortierung Art', 'unassigned', { status: 'open', type: 'billing', sort: 'type' }],
    ['Art + -Wartezeit, Seite 50', 'unassigned', { type: 'technical', sort: '-waiting', page: 50 }],
    ['Meine: Suche + Sortierung Status', 'mine', { q: 'mueller', sort: 'status' }],
    ['Meine: geschlossen, Seite 50', 'mine', { status: 'closed', page: 50 }],
  ];
  console.log('EXPLAIN (ANALYZE, BUFFERS) der Staff-Listen (Seite und Gesamtzahl; Ziel: kein Seq Scan auf tickets):');
  const explainLines: string[] = [];
  for (const [label, scope, query] of explainCases) {
    const built = staffTicketQueries(db, staffUser!, scope, query);
    for (const [part, statement] of [['Seite', built.rows], ['Gesamt', built.total]] as const) {
      const { sql: text, params } = statement.toSQL();
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${text}`, params);
      const plan = rows.map((r) => r['QUERY PLAN']);
      const seqScan = plan.some((l) => /Seq Scan on tickets\b/.test(l));
      const time = plan.find((l) => l.startsWith('Execution Time'))?.replace('Execution Time: ', '') ?? '?';
      const scans = [...new Set(plan.flatMap((l) => l.match(/(?:Index Only Scan|Index Scan|Bitmap Index Scan|Seq Scan)(?: Backward)? (?:using \S+ )?on \S+/g) ?? []))];
      if (seqScan) failed = true;
      const line = `  ${label} – ${part}: ${time}, ${seqScan ? 'VERFEHLT: Seq Scan auf tickets' : 'OK, Indexe'} (${scans.join('; ')})`;
      explainLines.push(line);
      console.log(line);
      if (process.env.BENCH_PLANS) console.log(plan.map((l) => `      ${l}`).join('\n'));
    }
  }
  console.log('');

  // ---- HTTP through the whole app (auth, validation, serialization), sequentially
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const api = `http://127.0.0.1:${(ctx.app.server.address() as { port: number }).port}/api`;
  // [name, URL, token, counts for the target]. A term of one or two characters has no trigram, so no
  // index can answer it (decision 014, "Benchmark"): measured and shown, but not held to the target.
  const cases: [string, string, string, boolean?][] = [
    ['Übersicht (neueste zuerst)', `${api}/staff/tickets`, staffToken],
    ['Übersicht Suche „mueller“ + Status offen', `${api}/staff/tickets?q=mueller&status=open`, staffToken],
    ['Übersicht Suche „mueller“ + Art, Wartezeit', `${api}/staff/tickets?q=mueller&type=technical&sort=waiting`, staffToken],
    ['Übersicht Suche „xylander“, Status', `${api}/staff/tickets?q=xylander&sort=status`, staffToken],
    ['Übersicht Suche „hauke.q“ (sehr selten)', `${api}/staff/tickets?q=hauke.q&sort=-createdAt`, staffToken],
    ['Übersicht Suche Titel „rechnung“ + Art, -Wartezeit', `${api}/staff/tickets?q=rechnung&type=billing&sort=-waiting`, staffToken],
    ['Übersicht Suche „ma“ (2 Zeichen, ohne Ziel)', `${api}/staff/tickets?q=ma`, staffToken, false],
    ['Übersicht Status + Art, Sortierung Art', `${api}/staff/tickets?status=open&type=technical&sort=type`, staffToken],
    ['Übersicht Status in Bearbeitung, Wartezeit', `${api}/staff/tickets?status=in_progress&sort=waiting`, staffToken],
    ['Übersicht Sortierung -Status', `${api}/staff/tickets?sort=-status`, staffToken],
    ['Übersicht Seite 50', `${api}/staff/tickets?page=50`, staffToken],
    ['Übersicht Art + Wartezeit, Seite 50', `${api}/staff/tickets?type=technical&sort=waiting&page=50`, staffToken],
    ['Meine Tickets', `${api}/staff/tickets/mine`, staffToken],
    ['Meine Tickets Suche „mueller“, Status', `${api}/staff/tickets/mine?q=mueller&sort=status`, staffToken],
    ['Meine Tickets geschlossen, Seite 50', `${api}/staff/tickets/mine?status=closed&page=50`, staffToken],
    ['Ticket mit 2.000 Nachrichten öffnen', `${api}/staff/tickets/${big!.id}`, staffToken],
    ['… Chat, erste Seite', `${api}/staff/tickets/${big!.id}/messages`, staffToken],
    ['… Chat, ältere Seite (before)', `${api}/staff/tickets/${big!.id}/messages?before=${big!.middle}`, staffToken],
    ['Kunde: eigene Tickets (201)', `${api}/tickets`, customerToken],
    ['Kunde: Chat, erste Seite', `${api}/tickets/${big!.id}/messages`, customerToken],
  ];
  // Shared machines are noisy (performance.md): the load beside the run says how to read the figures.
  const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' / ');
  console.log(`HTTP, je ${requests} Anfragen nacheinander nach 20 zum Aufwärmen; Ziel p95 ≤ ${TARGET_P95_MS} ms`);
  console.log(`Last des Rechners (1/5/15 min) vorher: ${load()} bei ${os.cpus().length} Kernen\n`);
  // Beside each staff list: the p95 of the service function alone (its SQL and mapping, no HTTP, no
  // token check), measured right after it, the way performance.md compares against a reference.
  const header = `${'Fall'.padEnd(52)} ${'p50'.padStart(7)} ${'p95'.padStart(7)} ${'p99'.padStart(7)}  Ziel    Ergebnis  ${'Dienst p95'.padStart(10)}`;
  const lines = [header, '-'.repeat(header.length + 12)];
  console.log(lines.join('\n'));
  for (const [name, url, token, counts = true] of cases) {
    const f = await measure(name, url, token);
    const list = new URL(url);
    const service = counts && (list.pathname === '/api/staff/tickets' || list.pathname === '/api/staff/tickets/mine')
      ? await timed(() => findStaffTickets(ctx.app.deps, staffUser!, list.pathname.endsWith('/mine') ? 'mine' : 'unassigned',
        StaffTicketListQuery.parse(Object.fromEntries(list.searchParams))))
      : undefined;
    const ok = f.p95 <= TARGET_P95_MS;
    if (!ok && counts) failed = true;
    const verdict = counts ? (ok ? 'PASS' : 'FAIL') : 'info';
    const line = `${f.name.padEnd(52)} ${f.p50.toFixed(1).padStart(7)} ${f.p95.toFixed(1).padStart(7)} ${f.p99.toFixed(1).padStart(7)}  ${counts ? `≤ ${TARGET_P95_MS}` : '  – '}  ${verdict}  ${(service ? service.p95.toFixed(1) : '–').padStart(10)}  ${f.info}`;
    lines.push(line);
    console.log(line);
  }
  console.log(`\nLast nachher: ${load()}; Gesamtdauer ${((performance.now() - started) / 1000).toFixed(0)} s`);
  if (failed) console.log('WARNUNG: mindestens ein Ziel verfehlt (siehe FAIL / VERFEHLT).');
} finally {
  await client.end();
  if (process.env.BENCH_KEEP || reuseUrl) {
    console.log(`Datenbank bleibt: ${reuseUrl ?? dbUrl.toString()} (wieder messen: BENCH_REUSE=…; löschen: drop database ${current!.name})`);
    await ctx.app.close();
    await ctx.database.close();
  } else {
    await ctx.close();
  }
}
process.exit(failed ? 1 : 0);
