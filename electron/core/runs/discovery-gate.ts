// Vendors whose session id can only be discovered after spawn: while one agent of
// such a vendor has no id yet, the next one in the same directory waits, so two new sessions never race.

const MAX_WAIT_MS = 30_000;

export class DiscoveryGate {
  private readonly held = new Map<string, Promise<void>>();

  /** Waits for the directory to be free, then holds it until `release` is called (or MAX_WAIT_MS passes). */
  async acquire(vendor: string, cwd: string): Promise<() => void> {
    const key = `${vendor}\0${cwd}`;
    for (let current = this.held.get(key); current; current = this.held.get(key)) await current;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, MAX_WAIT_MS);
      timer.unref();
      release = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.held.set(key, held);
    // `held` only ever resolves; the rejection handler keeps that a rule the code states, not an assumption.
    held.then(
      () => {
        if (this.held.get(key) === held) this.held.delete(key);
      },
      () => undefined,
    );
    return release;
  }
}
