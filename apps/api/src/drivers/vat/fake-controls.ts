import type http from 'node:http';

/**
 * What the tests can do to either VAT-check fake (VIES, eVatR): make it fail with a service error,
 * go down, answer slowly, or start over. The fakes read the state; only the fault's shape differs.
 */
export class FakeControls<Fault> {
  fault: Fault | null = null;
  isDown = false;
  delayMs = 0;

  reset() {
    this.fault = null;
    this.isDown = false;
    this.delayMs = 0;
  }
}

/** Closes a fake's server, open keep-alive connections included. */
export function closeFake(server: http.Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
