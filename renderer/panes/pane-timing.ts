// User Timing measures of showing a pane, for DevTools and the renderer bench (test/bench/renderer-scale.ts).

/**
 * A phase of showing a pane (its xterm opened, a WebGL context loaded, its catch-up fetched from the core, that
 * catch-up parsed), as a User Timing measure `baton:pane-<phase>` with the agent's id: seen in DevTools' performance
 * panel, and read by the renderer bench to say where a first visit's time goes. A few per pane shown, never per write.
 */
export function timed(phase: 'open' | 'webgl' | 'fetch' | 'parse', agentId: string, start: number): void {
  performance.measure(`baton:pane-${phase}`, { start, detail: agentId });
}
