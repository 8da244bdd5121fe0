// Preloaded into a core by test/bench/ssh.ts and renderer-scale.ts (BATON_BENCH_PROFILE) through NODE_OPTIONS=--require, where --cpu-prof
// is not allowed: profiles the main thread with the inspector and writes <dir>/<pid>-<command>.cpuprofile at exit.
'use strict';
const { Session } = require('node:inspector');
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { isMainThread } = require('node:worker_threads');

const dir = process.env.BATON_PROFILE_DIR;
if (dir && isMainThread) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  const write = (suffix) =>
    session.post('Profiler.stop', (err, result) => {
      if (err) return;
      mkdirSync(dir, { recursive: true });
      const command = process.argv
        .slice(2, 4)
        .map((a) => a.replace(/[^A-Za-z0-9]+/g, '_'))
        .join('-');
      writeFileSync(join(dir, `${process.pid}-${command}${suffix}.cpuprofile`), JSON.stringify(result.profile));
    });
  if (process.env.BATON_PROFILE_ON_SIGNAL === '1') {
    // A window of the core's life only (test/bench/renderer-scale.ts, its idle part): SIGUSR2 starts, the next writes.
    let on = false;
    process.on('SIGUSR2', () => {
      if (on) write('-window');
      else session.post('Profiler.start');
      on = !on;
    });
  } else {
    session.post('Profiler.start');
    process.on('exit', () => write(''));
  }
}
