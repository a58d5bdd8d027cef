// Clients for bench:events' idle phase, in their own process: 10,000 client sockets next to 10,000
// server sockets would pass the per-process file limit, and their memory would count as the server's.
// argv: port, tokens file (JSON array of tokens), tabs per token. Prints "ready <n>" once all streams
// received their `ready` event; exits when stdin closes.
import http from 'node:http';
import fs from 'node:fs';

const [port, tokensFile, tabs] = [Number(process.argv[2]), process.argv[3], Number(process.argv[4])];
const tokens = JSON.parse(fs.readFileSync(tokensFile, 'utf8'));
const open = (token) => new Promise((resolve, reject) => {
  const req = http.get({ host: '127.0.0.1', port, path: '/api/events', headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, agent: false }, (res) => {
    if (res.statusCode !== 200) return reject(new Error(`stream: ${res.statusCode}`));
    res.setEncoding('utf8');
    res.on('error', () => {});
    let ready = false;
    res.on('data', (chunk) => {
      if (!ready && chunk.includes('event: ready')) {
        ready = true;
        resolve(req);
      }
    });
  });
  req.on('error', (err) => {
    if (!req.destroyed) reject(err);
  });
});
const all = [];
for (let tab = 0; tab < tabs; tab++) {
  for (let i = 0; i < tokens.length; i += 100) all.push(...await Promise.all(tokens.slice(i, i + 100).map(open)));
}
process.stdout.write(`ready ${all.length}\n`);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
