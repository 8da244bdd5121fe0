// test/bench/ssh.ts's table: each figure next to its baseline from the same run and its goal (docs/hosts.md).
import { fmt, median, ms, quantile } from './stats.js';
import type { EchoFigures, HostDiagnostics } from './ssh-echo.js';
import { BIG_MB, QUICK_MS } from './ssh-measures.js';
import type { Round } from './ssh-throughput.js';

const p50p99 = (xs: number[]) => `p50 ${ms(quantile(xs, 0.5))}, p99 ${ms(quantile(xs, 0.99))}`;

/**
 * Which keystrokes are slow: those typed soon after the previous echo (output within a core's quiet spell is
 * coalesced), or any?
 */
function byPause(times: number[], pauses: number[]): string {
  const soon = times.filter((_, i) => pauses[i]! < QUICK_MS);
  const later = times.filter((_, i) => pauses[i]! >= QUICK_MS);
  const p = (xs: number[]) => (xs.length > 0 ? ms(quantile(xs, 0.99)) : '-');
  return `p99 ${p(soon)} (${soon.length} keys) / ${p(later)} (${later.length})`;
}

function echoRows(echo: EchoFigures, host: HostDiagnostics): string[][] {
  const p99 = quantile(echo.remote, 0.99);
  const base = quantile(echo.plain, 0.99);
  const limit = base * 1.2 + 5;
  return [
    [
      'keystroke echo p99',
      ms(p99),
      ms(base),
      `${fmt(p99 / base, 2)}×`,
      `≤ 1.2× + 5 ms (≤ ${ms(limit)}): ${p99 <= limit ? 'met' : 'MISSED'}`,
    ],
    ['keystroke echo p50', ms(quantile(echo.remote, 0.5)), ms(quantile(echo.plain, 0.5)), '', ''],
    [
      'vs `ssh -tt host cat`',
      p50p99(echo.tty),
      '',
      `${fmt(p99 / quantile(echo.tty, 0.99), 2)}×`,
      `diagnostic: a raw PTY there (p99 ≤ ${ms(quantile(echo.tty, 0.99) * 1.2 + 5)} by the goal's rule)`,
    ],
    ...(echo.remoteB
      ? [
          [
            'host B (switches) echo',
            p50p99(echo.remoteB),
            '',
            `B/A p99 ${fmt(quantile(echo.remoteB, 0.99) / p99, 2)}×`,
            `A/B: same moments; p90 ${ms(quantile(echo.remoteB, 0.9))} vs A ${ms(quantile(echo.remote, 0.9))}`,
          ],
        ]
      : []),
    ['echo on the host itself', p50p99(host.onHost), '', '', 'diagnostic: the remote core alone'],
    [
      'echo p99 by pause',
      byPause(echo.remote, echo.remotePauses),
      '',
      '',
      `keys typed < / ≥ ${QUICK_MS} ms after the last echo`,
    ],
    ['… on the host itself', byPause(host.onHost, host.onHostPauses), '', '', 'diagnostic'],
    ['host core over ssh', p50p99(host.overSsh), '', '', 'diagnostic: its forwarded socket, not this core'],
  ];
}

function throughputRows(rounds: Round[], resets: number): string[][] {
  if (rounds.length === 0) return [];
  const each = (f: (r: Round) => number, digits: number) => rounds.map((r) => fmt(f(r), digits)).join(', ');
  const ratios = rounds.map((r) => r.pane / r.plain);
  const ratio = median(ratios);
  return [
    [
      `throughput (${BIG_MB} MB), median of ${rounds.length}`,
      // A reset replaced bytes by a screen: the pane fell out of the local ring, the rate is not of byte-exact output.
      `${fmt(median(rounds.map((r) => r.pane)), 1)} MB/s${resets > 0 ? ` (${resets} resets: NOT byte-exact)` : ', byte-exact'}`,
      `${fmt(median(rounds.map((r) => r.plain)), 1)} MB/s`,
      `${fmt(ratio, 2)} (rounds ${ratios.map((x) => fmt(x, 2)).join(', ')})`,
      `≥ 0.8: ${ratio >= 0.8 ? 'met' : 'MISSED'}`,
    ],
    [
      'throughput on the host itself',
      `${each((r) => r.onHost, 1)} MB/s`,
      '',
      each((r) => r.onHost / r.plain, 2),
      'diagnostic: the remote core alone',
    ],
    [
      'ssh -tt host cat bigfile',
      `${each((r) => r.tty, 1)} MB/s`,
      '',
      each((r) => r.pane / r.tty, 2),
      'diagnostic: remote pane vs a PTY there',
    ],
    [
      'ssh -tt host cat bigfile / plain ssh',
      each((r) => r.tty / r.plain, 2),
      '',
      '',
      "ceiling: OpenSSH's own rate through a PTY, as a share of its pipe",
    ],
    [
      'a PTY alone (node-pty)',
      `${each((r) => r.pty, 1)} MB/s`,
      '',
      each((r) => r.pane / r.pty, 2),
      'diagnostic: remote pane vs no core at all',
    ],
    ['remote pane / host alone', each((r) => r.pane / r.onHost, 2), '', '', 'diagnostic: what ssh and this core cost'],
    ...(rounds.every((r) => r.basePane !== undefined)
      ? [
          [
            "base build's remote pane",
            `${each((r) => r.basePane!, 1)} MB/s`,
            '',
            `this / base ${each((r) => r.pane / r.basePane!, 2)}`,
            'A/B: BATON_BENCH_BASE in the same rounds',
          ],
        ]
      : []),
  ];
}

export function printReport(echo: EchoFigures, host: HostDiagnostics, rounds: Round[], resets: number): void {
  const rows = [
    ['metric', 'remote agent', 'plain ssh (same connection)', 'ratio', 'goal'],
    ...echoRows(echo, host),
    ...throughputRows(rounds, resets),
  ];
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(i === 0 ? 22 : 28)).join(' '));
}
