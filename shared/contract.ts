// The one contract between the core host and every client (renderer, CLI, tests), whatever the transport.
// Every message is validated against these schemas on both ends.
// Its parts live in contract/, one topic each; this file is the one entry every importer uses.
// Schemas are built when first used (the tables with lazyTable, the named schemas with z.lazy): building them all is
// most of what the contract costs a process at its start (docs/performance.md "CLI start: the contract built as
// used").
export * from './contract/agents.js';
export * from './contract/handles.js';
export * from './contract/sessions.js';
export * from './contract/cost.js';
export * from './contract/search.js';
export * from './contract/core.js';
export * from './contract/requests.js';
export * from './contract/events.js';
export * from './contract/attention.js';
export * from './contract/wire.js';
export * from './contract/hosts.js';
export * from './contract/host-worktrees.js';
export * from './contract/portable.js';
export * from './contract/frames.js';
export * from './contract/input-seq.js';
export * from './contract/quick-checks.js';
