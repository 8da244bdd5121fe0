// Preloaded into a core by test/bench/ssh.ts and renderer-scale.ts (BATON_BENCH_PROFILE) through NODE_OPTIONS=--require, where --cpu-prof
// is not allowed: profiles the main thread with the inspector and writes <dir>/<pid>-<command>.cpuprofile at exit.
'use strict';
const { Session } = require('node:inspector');
const { existsSync, mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { isMainThread, threadId } = require('node:worker_threads');

const dir = process.env.BATON_PROFILE_DIR;
const windowed = process.env.BATON_PROFILE_WINDOW === '1';
if (dir && (isMainThread || windowed)) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  const thread = isMainThread ? '' : `-worker${threadId}`;
  const write = (suffix) =>
    session.post('Profiler.stop', (err, result) => {
      if (err) return;
      mkdirSync(dir, { recursive: true });
      const command = process.argv
        .slice(2, 4)
        .map((a) => a.replace(/[^A-Za-z0-9]+/g, '_'))
        .join('-');
      writeFileSync(
        join(dir, `${process.pid}-${command}${thread}${suffix}.cpuprofile`),
        JSON.stringify(result.profile),
      );
    });
  if (windowed) {
    // A window of the core's life only, every thread (test/bench/renderer-scale.ts, its idle part): the profile runs
    // while <dir>/window exists (a signal reaches the main thread only).
    const marker = join(dir, 'window');
    let on = false;
    setInterval(() => {
      if (existsSync(marker) === on) return;
      on = !on;
      if (on) session.post('Profiler.start');
      else write('-window');
    }, 200).unref();
  } else {
    session.post('Profiler.start');
    process.on('exit', () => write(''));
  }
}
