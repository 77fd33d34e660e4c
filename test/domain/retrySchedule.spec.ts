import { expect } from 'chai';
import { MAX_ATTEMPTS, nextAttemptAt } from '../../src/domain/document/lifecycle/deliverySchedule.js';
import { retrySchedule } from '../../src/domain/retrySchedule.js';

const minute = 60_000;
const finishedAt = new Date('2026-05-01T10:00:00.000Z');
const dueAfter = (at: Date | null): number | null =>
  at === null ? null : (at.getTime() - finishedAt.getTime()) / minute;

describe('Retry schedule', () => {
  it('Given delays of 1, 5 and 15 minutes, Then a failed first attempt is retried after 1, the second after 5, the third after 15, and the fourth is the last', () => {
    const schedule = retrySchedule([1, 5, 15]);
    expect(schedule.maxAttempts).to.equal(4);
    expect([1, 2, 3, 4].map((attempt) => dueAfter(schedule.nextAttemptAt(attempt, finishedAt, minute)))).to.deep.equal([
      1,
      5,
      15,
      null,
    ]);
  });

  it('Given an attempt number outside the schedule (0, negative, past the last), Then no retry is due', () => {
    const schedule = retrySchedule([1, 5, 15]);
    for (const attempt of [0, -1, 5, 100])
      expect(schedule.nextAttemptAt(attempt, finishedAt, minute), `attempt ${attempt}`).to.equal(null);
  });

  it('Given a compressed time unit (tests run a minute as 10 ms), Then the delays scale with it', () => {
    const at = retrySchedule([4]).nextAttemptAt(1, finishedAt, 10);
    expect(at!.getTime() - finishedAt.getTime()).to.equal(40);
  });

  it('Given no delays, Then the first attempt is the only one', () => {
    const schedule = retrySchedule([]);
    expect(schedule.maxAttempts).to.equal(1);
    expect(schedule.nextAttemptAt(1, finishedAt, minute)).to.equal(null);
  });

  it("A document's delivery: 10 retries after 1, 2, 4, … 256 minutes and 6 hours (the spec's schedule), then FAILED", () => {
    expect(MAX_ATTEMPTS).to.equal(11);
    const delays = Array.from({ length: MAX_ATTEMPTS }, (_, i) => dueAfter(nextAttemptAt(i + 1, finishedAt, minute)));
    expect(delays).to.deep.equal([1, 2, 4, 8, 16, 32, 64, 128, 256, 360, null]);
  });
});
