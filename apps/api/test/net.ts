import net from 'node:net';

/**
 * A free port for a server a test starts. Each Vitest worker takes ports from its own block below the
 * OS's ephemeral range (20000 + 1000 × worker), counting up within the block, and checks that the port
 * can be bound. Asking the OS for port 0 and closing it again raced: with four workers and concurrent
 * crash scenarios, two API processes could be handed the same port, and a test then talked to another
 * test's server (seen once as a 401 from a foreign database).
 */
const worker = Number(process.env.VITEST_POOL_ID ?? process.env.VITEST_WORKER_ID ?? 0) % 30;
let next = 0;

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 1000; tries++) {
    const port = 20000 + worker * 1000 + (next++ % 1000);
    if (await canBind(port)) return port;
  }
  throw new Error('no free port in this worker\'s block');
}
