// What cold-page.ts injects into the page before its scripts run: the probe of when the run list and New run are
// in the page, and when the socket opened and each request was answered (renderer-scale.ts can inject it too).

/**
 * Runs before the page's scripts: the probe (run list and New run in the DOM), and when the socket opened and each
 * request's reply came (the wire's JSON: `{t:'req', id, method}` out, the reply carries the id).
 */
export const PROBE = `(() => {
  const g = globalThis;
  g.__cold = { requests: {}, replies: {}, longTasks: [] };
  const seen = () => document.querySelector('[aria-label="Runs"]') && [...document.querySelectorAll('button')].some((b) => b.textContent === 'New run');
  new MutationObserver((_, o) => { if (seen()) { g.__cold.shown = performance.now(); o.disconnect(); g.__coldShownHook?.(); } })
    .observe(document, { subtree: true, childList: true });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) g.__cold.longTasks.push([Math.round(e.startTime), Math.round(e.duration)]); })
    .observe({ type: 'longtask', buffered: true });
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (typeof data === 'string') { try { const m = JSON.parse(data); if (m.t === 'req') g.__cold.requests[m.id] = [m.method, performance.now()]; } catch {} }
    if (!g.__cold.wsHooked) {
      g.__cold.wsHooked = true;
      this.addEventListener('message', (e) => {
        if (typeof e.data !== 'string') return;
        const at = performance.now();
        const m = /"id":(\\d+)/.exec(e.data.slice(0, 200));
        if (m && !(m[1] in g.__cold.replies)) g.__cold.replies[m[1]] = [at, e.data.length];
      });
    }
    return send.call(this, data);
  };
  const Ws = WebSocket;
  g.WebSocket = new Proxy(Ws, { construct(target, args) {
    const ws = new target(...args);
    g.__cold.wsCreated = performance.now();
    ws.addEventListener('open', () => { g.__cold.wsOpen = performance.now(); });
    return ws;
  } });
})();`;

export interface ColdGlobal {
  __cold: {
    shown?: number;
    wsCreated?: number;
    wsOpen?: number;
    requests: Record<string, [string, number]>;
    replies: Record<string, [number, number]>;
    longTasks: [number, number][];
  };
}
