// A headless xterm per terminal, fed the same bytes as the pane: the source of screens and of reattach resets.
import xtermHeadless from '@xterm/headless';
import serializeAddon from '@xterm/addon-serialize';

const { Terminal } = xtermHeadless;
const { SerializeAddon } = serializeAddon;

export interface MirrorScreen {
  cols: number;
  rows: number;
  /** The offset of the first byte the mirror has not yet applied. */
  offset: number;
  serialized: string;
  text: string;
}

export class Mirror {
  private readonly term: InstanceType<typeof Terminal>;
  private readonly serializer = new SerializeAddon();
  private queued = 0;
  private applied = 0;

  constructor(cols: number, rows: number, private readonly scrollback: number) {
    this.term = new Terminal({ cols, rows, scrollback, allowProposedApi: true });
    this.term.loadAddon(this.serializer);
  }

  /** Bytes queued but not yet parsed: the core pauses the PTY when this grows too large. */
  get backlog(): number {
    return this.queued - this.applied;
  }

  write(chunk: Uint8Array, onApplied?: () => void): void {
    this.queued += chunk.length;
    const end = this.queued;
    this.term.write(chunk, () => {
      this.applied = end;
      onApplied?.();
    });
  }

  resize(cols: number, rows: number): void {
    this.term.resize(cols, rows);
  }

  /**
   * The screen once every byte written so far has been applied. Taken inside xterm's write callback,
   * so the screen matches `offset` exactly even while more output keeps arriving.
   */
  capture(textLines = 200): Promise<MirrorScreen> {
    return new Promise((resolve) => {
      this.term.write('', () => {
        resolve({
          cols: this.term.cols,
          rows: this.term.rows,
          offset: this.applied,
          serialized: this.serializer.serialize({ scrollback: this.scrollback }),
          text: this.plainText(textLines),
        });
      });
    });
  }

  dispose(): void {
    this.term.dispose();
  }

  private plainText(maxLines: number): string {
    const buffer = this.term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < buffer.length; y++) {
      const line = buffer.getLine(y);
      if (!line) continue;
      const text = line.translateToString(true);
      if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
      else lines.push(text);
    }
    while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    return lines.slice(-maxLines).join('\n');
  }
}
