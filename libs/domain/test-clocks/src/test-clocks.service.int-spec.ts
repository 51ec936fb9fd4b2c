import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { MAX_TEST_CLOCK_OFFSET_SECONDS } from '@gateway/contracts';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import type { DeveloperContext, ManualClock } from '@gateway/platform';
import { createDomainTestContext } from '@gateway/platform/testing';
import { TestClocksModule } from './test-clocks.module';
import { TestClocksService } from './test-clocks.service';

describe('TestClocksService', () => {
  let app: INestApplicationContext;
  let clock: ManualClock;
  let clocks: TestClocksService;
  let n = 0;
  const tenant = async (): Promise<DeveloperContext> => {
    const developer = await app.get(DevelopersService).create({ email: `clock-${++n}-${Date.now()}@example.com`, name: 'Clock' });
    return { developerId: developer.id, mode: 'test' };
  };

  beforeAll(async () => {
    ({ app, clock } = await createDomainTestContext([TestClocksModule, DevelopersModule]));
    clocks = app.get(TestClocksService);
  });
  afterAll(() => app.close());

  it('counts every one of ten concurrent advances', async () => {
    const ctx = await tenant();
    await Promise.all(Array.from({ length: 10 }, () => clocks.advance(ctx, 60)));
    expect(await clocks.read(ctx)).toEqual({ now: new Date(clock.now().getTime() + 600_000), offsetSeconds: 600 });
    expect((await clocks.now(ctx)).getTime()).toBe(clock.now().getTime() + 600_000);
  });

  it('never moves the live mode of the same developer', async () => {
    const ctx = await tenant();
    await clocks.advance(ctx, 86_400);
    expect(await clocks.now({ ...ctx, mode: 'live' })).toEqual(clock.now());
    await expect(clocks.advance({ ...ctx, mode: 'live' }, 60)).rejects.toMatchObject({ code: 'test_mode_required' });
  });

  it('stops at ten years ahead, leaving the clock as it was, and resets to real time', async () => {
    const ctx = await tenant();
    await clocks.advance(ctx, MAX_TEST_CLOCK_OFFSET_SECONDS - 10);
    await expect(clocks.advance(ctx, 11)).rejects.toMatchObject({ code: 'validation_error', fieldErrors: { seconds: [expect.any(String)] } });
    expect((await clocks.read(ctx)).offsetSeconds).toBe(MAX_TEST_CLOCK_OFFSET_SECONDS - 10);
    expect(await clocks.reset(ctx)).toEqual({ now: clock.now(), offsetSeconds: 0 });
    expect(await clocks.now(ctx)).toEqual(clock.now());
  });

  it('lists only the clocks running ahead, each at its own time', async () => {
    const ahead = await tenant();
    const back = await tenant();
    await clocks.advance(ahead, 3_600);
    await clocks.advance(back, 60);
    await clocks.reset(back);
    const listed = await clocks.advancedTenants();
    expect(listed).toContainEqual({ ctx: ahead, now: new Date(clock.now().getTime() + 3_600_000) });
    expect(listed.map((t) => t.ctx.developerId)).not.toContain(back.developerId);
  });
});
