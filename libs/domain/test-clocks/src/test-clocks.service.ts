import { Injectable } from '@nestjs/common';
import { MAX_TEST_CLOCK_OFFSET_SECONDS } from '@gateway/contracts';
import { Clock, type DeveloperContext, DomainError, requireTestMode } from '@gateway/platform';
import type { EntityManager } from 'typeorm';
import { TestClocksRepository } from './test-clocks.repository';

export interface TestClockReading {
  /** The developer's test-mode time. */
  now: Date;
  offsetSeconds: number;
}

/**
 * Test clocks (docs/test-clocks.md): in test mode a developer moves their own time forward, and
 * every time-driven rule for their test objects follows it — trials, billing, dunning, overdue
 * invoices, scheduled charges, hold expiry, abandonment, dispute deadlines. Live mode never does:
 * `now(ctx)` in live mode is real time, whatever any clock says.
 */
@Injectable()
export class TestClocksService {
  constructor(
    private readonly repository: TestClocksRepository,
    private readonly clock: Clock,
  ) {}

  /** The tenant's time: real time in live mode; real time plus the developer's offset in test mode. */
  async now(ctx: DeveloperContext, manager?: EntityManager): Promise<Date> {
    const real = this.clock.now();
    if (ctx.mode !== 'test') return real;
    const offset = await this.repository.offsetSeconds(ctx, manager);
    return new Date(real.getTime() + offset * 1_000);
  }

  /** @throws test_mode_required */
  async read(ctx: DeveloperContext): Promise<TestClockReading> {
    requireTestMode(ctx);
    const offsetSeconds = await this.repository.offsetSeconds(ctx);
    return { now: new Date(this.clock.now().getTime() + offsetSeconds * 1_000), offsetSeconds };
  }

  /**
   * Moves the developer's test time forward by `seconds` (a positive whole number).
   * @throws test_mode_required, validation_error (past the ten-year limit)
   */
  async advance(ctx: DeveloperContext, seconds: number): Promise<TestClockReading> {
    requireTestMode(ctx);
    const offsetSeconds = await this.repository.advance(ctx, seconds, MAX_TEST_CLOCK_OFFSET_SECONDS, this.clock.now());
    if (offsetSeconds === null) {
      throw new DomainError('validation_error', 'A test clock runs at most ten years ahead; reset it first.', {
        seconds: [`the clock would pass ${MAX_TEST_CLOCK_OFFSET_SECONDS} seconds ahead of real time`],
      });
    }
    return { now: new Date(this.clock.now().getTime() + offsetSeconds * 1_000), offsetSeconds };
  }

  /**
   * Back to real time. What already happened in the future stays done (a charged period stays
   * charged); rules simply wait for real time to reach their next date again.
   * @throws test_mode_required
   */
  async reset(ctx: DeveloperContext): Promise<TestClockReading> {
    requireTestMode(ctx);
    await this.repository.reset(ctx);
    return { now: this.clock.now(), offsetSeconds: 0 };
  }

  /** The test-mode tenants whose clocks run ahead, each with its current time (the scheduler runs their rules at it). */
  async advancedTenants(): Promise<Array<{ ctx: DeveloperContext; now: Date }>> {
    const real = this.clock.now().getTime();
    return (await this.repository.advanced()).map((c) => ({ ctx: { developerId: c.developerId, mode: 'test' }, now: new Date(real + c.offsetSeconds * 1_000) }));
  }
}
