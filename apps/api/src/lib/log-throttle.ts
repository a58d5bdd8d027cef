/** Lets one log line through per interval and counts the ones it held back. */
export class LogThrottle {
  private last = 0;
  private held = 0;
  constructor(private readonly intervalMs: number) {}

  /** The number of lines held back since the last one, or undefined when this one is held back too. */
  take(now = Date.now()): number | undefined {
    if (now - this.last < this.intervalMs) {
      this.held++;
      return undefined;
    }
    const held = this.held;
    this.last = now;
    this.held = 0;
    return held;
  }
}
