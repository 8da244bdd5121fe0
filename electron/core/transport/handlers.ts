// Each request of the contract, mapped onto the core. Params arrive validated; results are the contract's.
import { PROTOCOL_VERSION, type Method, type Params, type Result } from '../../../shared/contract.js';
import type { CoreHost } from '../host.js';
import { adoptSessions, listFoundSessions } from '../runs/session-import.js';

type Handler<M extends Method> = (core: CoreHost, params: Params<M>) => Promise<Result<M>> | Result<M>;
// attach and detach change the client's own streams: the session answers them (client-session.ts).
type Handlers = { [M in Method]: M extends 'agent.attach' | 'agent.detach' ? null : Handler<M> };

export const handlers: Handlers = {
  'host.info': async (core) => ({ version: core.version, dataDir: core.dataDir, vendors: await core.service.vendors.detect(core.env) }),
  'run.list': (core, p) => core.service.listRuns(p.query),
  'run.get': (core, p) => core.service.getRun(p.run),
  'run.screens': (core, p) => core.service.screens(p.run, p.live ?? false),
  'run.events': (core, p) => core.service.events(p.run),
  'run.start': (core, p) => core.service.startRun(p.name, p.agents),
  'run.snapshot': (core, p) => core.service.snapshot(p.run, 'user'),
  'run.rename': (core, p) => core.service.rename(p.run, p.name),
  'run.delete': async (core, p) => ({ deleted: await core.service.delete(p.run) }),
  'run.stop': (core, p) => core.service.stopRun(p.run),
  'run.handle': async (core, p) => ({ handle: await core.service.handleFor(p.run, p.agent) }),
  'run.commands': (core, p) => core.service.resumeCommands(p.run, p.agent),
  'run.resume': (core, p) => core.service.resume(p.handle, p.cwd, p.confirmShell),
  'handle.inspect': (core, p) => core.service.inspectHandle(p.handle, p.cwd),
  'agent.add': (core, p) => core.service.addAgent(p.run, p.agent),
  'agent.stop': (core, p) => core.service.stopAgent(p.agentId),
  'agent.restart': (core, p) => core.service.restartAgent(p.agentId),
  'agent.write': (core, p) => {
    core.service.write(p.agentId, p.data);
    return {};
  },
  'agent.send': async (core, p) => {
    await core.service.send(p.agentId, p.text);
    return {};
  },
  'agent.resize': (core, p) => {
    core.service.resize(p.agentId, p.cols, p.rows);
    return {};
  },
  'agent.screen': (core, p) => core.service.agentScreen(p.agentId),
  'agent.attach': null,
  'agent.detach': null,
  'sessions.list': (core, p) => listFoundSessions(core.env, core.service.lookups, p, core.service.vendors.adapters),
  'sessions.adopt': (core, p) => adoptSessions(core.service, core.service.lookups, p),
  'core.info': (core) => ({
    version: core.version,
    protocolVersion: PROTOCOL_VERSION,
    pid: process.pid,
    startedAt: core.startedAt,
    liveAgents: core.service.liveAgents().reduce((n, r) => n + r.agentIds.length, 0),
  }),
  'core.shutdown': (core, p) => core.shutdown(p.resumeOnStart),
  'recovery.get': (core) => core.recovery.state(),
  'recovery.resume': (core) => core.recovery.resumeAll(),
  'recovery.dismiss': async (core) => {
    await core.recovery.dismiss();
    return {};
  },
  'settings.get': (core) => core.settings(),
  'settings.set': (core, p) => core.updateSettings(stripUndefined(p)),
};

/** `{quitAction: undefined}` would overwrite a saved choice with nothing: only the keys given change. */
function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
