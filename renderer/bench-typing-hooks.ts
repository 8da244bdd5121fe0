// Measurement hooks of the scale bench for typing into the history's search box (bench-scale-hooks.ts exposes them):
// per key, from its `keydown`, when the filtered rows are in the DOM and when the frame after that has painted.

export /** One key typed into the history's search box: times (ms) from the key's `keydown` timestamp. */
interface TypingKey {
  /** The key waited this long before the page ran its first handler (the machine's and the page's queue). */
  wait: number;
  /**
   * The rows in the DOM are the filtered ones: taken after React's handler of the `input` event (a window listener in
   * the bubble phase runs after the root's), checked against the box's text (every rendered row's name contains it,
   * or the list says no run matches), else at the first DOM change after which they are. The page's work per key;
   * no frame is waited for.
   */
  dom: number;
  /**
   * The frame after that painted: a task queued from the next `requestAnimationFrame` callback runs once the frame's
   * style, layout, paint and commit are done. Includes, by construction, the wait for that frame (0 to one frame
   * interval, 16.7 ms at 60 Hz); `frameAt` says where it began.
   */
  painted: number;
  /** The next animation frame began (its `requestAnimationFrame` callbacks ran). */
  frameAt: number;
}

let keys: TypingKey[] = [];
let armed = false;

/** The history's rendered rows show the filter `query` (lower-cased, trimmed) or say that no run matches. */
function rowsShow(query: string): boolean {
  const q = query.trim().toLowerCase();
  const list = document.querySelector('ul[aria-label="Runs"]');
  if (!list) return document.querySelector('.bt-sidebar .bt-empty') !== null;
  // A row's button holds its name and vendors (what the search matches) and a little more.
  for (const row of list.querySelectorAll('.bt-run-select'))
    if (!(row.textContent ?? '').toLowerCase().includes(q)) return false;
  return true;
}

export function armTyping(): void {
  keys = [];
  if (armed) return;
  armed = true;
  let keyAt: number | null = null;
  let waited = 0;
  window.addEventListener(
    'keydown',
    (e) => {
      keyAt = e.timeStamp;
      waited = performance.now() - e.timeStamp;
    },
    true,
  );
  // Bubble phase: React's listener on its root container has run (and, for a discrete event, rendered and committed).
  window.addEventListener('input', (e) => {
    const box = e.target;
    if (keyAt === null || !(box instanceof HTMLInputElement) || box.type !== 'search') return;
    const start = keyAt;
    keyAt = null;
    const key: TypingKey = { wait: waited, dom: NaN, painted: NaN, frameAt: NaN };
    const shown = () => (key.dom = performance.now() - start);
    const watch = new MutationObserver(() => {
      if (!rowsShow(box.value)) return;
      watch.disconnect();
      shown();
    });
    if (rowsShow(box.value)) shown();
    else watch.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    // The first frame that begins with the rows in the DOM (a second of frames at most; `dom` stays NaN if never).
    let frames = 0;
    const frame = () => {
      if (Number.isNaN(key.dom) && ++frames < 60) return void requestAnimationFrame(frame);
      watch.disconnect();
      key.frameAt = performance.now() - start;
      setTimeout(() => (key.painted = performance.now() - start), 0);
    };
    requestAnimationFrame(frame);
    keys.push(key);
  });
}

/** Per key since `armTyping`, in the order typed. */
export const typingKeys = (): TypingKey[] => keys.map((k) => ({ ...k }));
