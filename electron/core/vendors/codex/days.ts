// Codex names its rollout folders by the LOCAL date where the CLI runs (docs/vendors.md §2 pitfall 3): never derive them
// from UTC. The CLI inherits Baton's environment, so its time zone is env.TZ when that names an IANA zone.
import type { VendorEnv } from '../adapter.js';

interface Ymd {
  y: number;
  m: number;
  d: number;
}

/** The IANA zone named by TZ, when Intl knows it (POSIX rules such as `UTC0` or `:/etc/localtime` are not). */
function zoneOf(env: VendorEnv): string | null {
  let tz = env.TZ;
  if (!tz) return null;
  if (tz.startsWith(':')) tz = tz.slice(1);
  if (tz === '' || tz.startsWith('/')) return null;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz;
  } catch {
    return null;
  }
}

/** The calendar day of `at` where the CLI runs: in env.TZ (the CLI inherits it), else this process's local time. */
function localDay(at: Date, env: VendorEnv): Ymd {
  const zone = zoneOf(env);
  if (zone) {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
    }).formatToParts(at);
    const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
    const ymd = { y: get('year'), m: get('month'), d: get('day') };
    if (Number.isFinite(ymd.y) && Number.isFinite(ymd.m) && Number.isFinite(ymd.d)) return ymd;
  }
  return { y: at.getFullYear(), m: at.getMonth() + 1, d: at.getDate() };
}

const pad = (n: number) => String(n).padStart(2, '0');
const folderOf = ({ y, m, d }: Ymd) => `${String(y).padStart(4, '0')}/${pad(m)}/${pad(d)}`;

/** `YYYY/MM/DD` of the local day of `at` and of the day before it (calendar arithmetic: DST days are 23 or 25 h long). */
export function localDayFolders(at: Date, env: VendorEnv): [string, string] {
  const today = localDay(at, env);
  const prev = new Date(Date.UTC(today.y, today.m - 1, today.d - 1));
  return [folderOf(today), folderOf({ y: prev.getUTCFullYear(), m: prev.getUTCMonth() + 1, d: prev.getUTCDate() })];
}
