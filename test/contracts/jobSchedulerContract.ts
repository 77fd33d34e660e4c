import { expect } from 'chai';
import type { JobScheduler } from '../../src/application/ports/jobScheduler.js';

export interface JobSchedulerFixture {
  /** Not started yet: the contract defines its jobs first. Polls often (about every 100 ms). */
  scheduler: JobScheduler;
  /** How many jobs of this name the backend keeps, whether still due or already run. */
  countJobs(name: string): Promise<number>;
  dispose(): Promise<void>;
}

/** The behaviour every job scheduler (Agenda on each of its backends) must have; each adapter's test calls this. */
export function jobSchedulerContract(adapterName: string, create: () => Promise<JobSchedulerFixture>): void {
  describe(`JobScheduler contract: ${adapterName}`, () => {
    let fixture: JobSchedulerFixture;
    let scheduler: JobScheduler;
    const runs: Array<{ n: number }> = [];

    before(async () => {
      fixture = await create();
      scheduler = fixture.scheduler;
      scheduler.define<{ n: number }>('record', async (data) => {
        runs.push({ n: data.n });
      });
      scheduler.define<{ n: number }>('flaky', async (data) => {
        runs.push({ n: data.n });
        if (runs.filter((r) => r.n === data.n).length === 1) throw new Error('the database went away');
      });
      await scheduler.start();
    });
    after(async () => {
      await scheduler?.stop();
      await fixture?.dispose();
    });

    async function until(predicate: () => boolean, ms = 10_000) {
      const deadline = Date.now() + ms;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error('condition not reached');
        await new Promise((r) => setTimeout(r, 50));
      }
    }

    it('runs a scheduled job, and a job scheduled twice with one unique key once', async () => {
      await scheduler.schedule('record', { n: 1 });
      await scheduler.schedule('record', { n: 2 }, { uniqueKey: 'event-42' });
      await scheduler.schedule('record', { n: 2 }, { uniqueKey: 'event-42' });
      await until(() => runs.some((r) => r.n === 1) && runs.some((r) => r.n === 2));
      await new Promise((r) => setTimeout(r, 500));
      expect(runs.filter((r) => r.n === 2)).to.have.length(1);
      expect(await fixture.countJobs('record')).to.equal(2);
    });

    it('runs a job that threw again later, until it succeeds', async () => {
      await scheduler.schedule('flaky', { n: 4 });
      await until(() => runs.filter((r) => r.n === 4).length === 2);
      await new Promise((r) => setTimeout(r, 1500));
      expect(runs.filter((r) => r.n === 4)).to.have.length(2);
    });

    it('runs a job at its scheduled time, not before', async () => {
      const at = new Date(Date.now() + 1000);
      await scheduler.schedule('record', { n: 3 }, { at });
      await new Promise((r) => setTimeout(r, 300));
      expect(runs.some((r) => r.n === 3)).to.equal(false);
      await until(() => runs.some((r) => r.n === 3));
    });
  });
}
