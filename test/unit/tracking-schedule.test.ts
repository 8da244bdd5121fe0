// The process tracker's pace (pty/tracking-schedule.ts): it backs off while nothing changes, and comes back to its
// tick at once when a tree changes or a terminal prints.
import { describe, expect, it } from 'vitest';
import { TRACKING_PACE, TrackingSchedule } from '../../electron/core/pty/tracking-schedule.js';

describe('the tracking schedule', () => {
  it('doubles its wait after each pass that found nothing new, up to the quiet maximum', () => {
    const schedule = new TrackingSchedule();
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      schedule.passed(i * 10_000, false);
      waits.push(schedule.currentWaitMs);
    }
    expect(waits).toEqual([2000, 4000, 8000, 8000, 8000, 8000]);
    expect(TRACKING_PACE.quietMaxMs).toBe(8000);
  });

  it('is not due within its wait, and due once the wait has passed', () => {
    const schedule = new TrackingSchedule();
    schedule.passed(0, false);
    schedule.passed(1000, false);
    expect(schedule.currentWaitMs).toBe(4000);
    expect(schedule.due(2000, 0)).toBe(false);
    expect(schedule.due(4999, 0)).toBe(false);
    expect(schedule.due(5000, 0)).toBe(true);
  });

  it('is due at the next tick when a terminal printed since the last pass, however long its wait', () => {
    const schedule = new TrackingSchedule();
    for (let i = 0; i < 4; i++) schedule.passed(i * 1000, false);
    expect(schedule.currentWaitMs).toBe(8000);
    expect(schedule.due(4000, 2000)).toBe(false); // printed before the last pass began: already seen
    expect(schedule.due(4000, 3500)).toBe(true);
  });

  it('a pass that found a change brings the wait back to the tick', () => {
    const schedule = new TrackingSchedule();
    for (let i = 0; i < 4; i++) schedule.passed(i * 1000, false);
    schedule.passed(5000, true);
    expect(schedule.currentWaitMs).toBe(TRACKING_PACE.tickMs);
  });
});
