// Input to an agent's PTY, written in the task that received it (docs/performance.md, "Remote echo tail (echo15)").
// node-pty 1.1 writes through `fs.write`, i.e. on libuv's thread pool: every key woke a pool thread to write it and
// then this thread again for the callback, one more process wake-up on the echo's path (on a busy 2-CPU host, a wait
// for a CPU each). The master fd is non-blocking, so a write here never blocks: what the kernel's buffer does not take
// now (EAGAIN or a partial write: a long paste into an agent that is not reading) is kept in order and retried a few
// ms later, as node-pty's own queue does. Without a file descriptor (Windows' ConPTY) node-pty writes as before.
import { fstatSync, writeSync } from 'node:fs';

/** How long a write the kernel refused waits before it is tried again. */
const RETRY_MS = 5;

/** BATON_PTY_SYNC_WRITES=0: node-pty's own writes, as before (the bench's A/B). */
const SYNC_WRITES = process.env.BATON_PTY_SYNC_WRITES !== '0';

export interface PtyInput {
  write(data: string): void;
  dispose(): void;
}

/** A writer for `pty` (node-pty's terminal): direct writes to its master fd where it has one. */
export function ptyInput(pty: { write(data: string): void }): PtyInput {
  const fd = (pty as { fd?: unknown }).fd;
  if (!SYNC_WRITES || typeof fd !== 'number') return { write: (data) => pty.write(data), dispose: () => undefined };
  return new DirectPtyWriter(fd);
}

class DirectPtyWriter implements PtyInput {
  private readonly queue: Buffer[] = [];
  private retry: NodeJS.Timeout | null = null;
  private disposed = false;

  /** The PTY the fd is now: once node-pty closes it, the number may be reused by another file, never written. */
  private readonly identity: string | null;

  constructor(private readonly fd: number) {
    this.identity = identityOf(fd);
  }

  write(data: string): void {
    const bytes = Buffer.from(data, 'utf8');
    if (this.disposed || bytes.length === 0) return;
    this.queue.push(bytes);
    // Anything queued goes first: keys keep their order behind a paste the agent has not read yet.
    if (this.queue.length === 1) this.drain();
  }

  dispose(): void {
    this.disposed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.queue.length = 0;
  }

  private drain(): void {
    this.retry = null;
    if (this.identity === null || identityOf(this.fd) !== this.identity) return this.dispose();
    while (this.queue.length > 0 && !this.disposed) {
      const head = this.queue[0]!;
      let written: number;
      try {
        written = writeSync(this.fd, head);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EAGAIN') {
          // A few ms, as node-pty waits: on the next turn of the loop, an agent that does not read for minutes would
          // keep this thread busy retrying.
          this.retry = setTimeout(() => this.drain(), RETRY_MS);
          return;
        }
        // The PTY is gone (EIO, EBADF after its exit): no one reads this input any more.
        this.queue.length = 0;
        return;
      }
      if (written < head.length) this.queue[0] = head.subarray(written);
      else this.queue.shift();
    }
  }
}

/** The device and inode behind `fd`, or null when it is closed. */
function identityOf(fd: number): string | null {
  try {
    const st = fstatSync(fd);
    return `${st.dev}:${st.ino}:${st.rdev}`;
  } catch {
    return null;
  }
}
