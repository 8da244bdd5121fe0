// Preloaded into a core by test/bench/renderer-scale.ts (BENCH_CORE_GC=1) through NODE_OPTIONS=--require, where
// --trace-gc is not allowed: V8 prints each garbage collection of every thread on the core's output.
'use strict';
require('node:v8').setFlagsFromString('--trace-gc');
