import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdvanceTestClockRequest, TestClockResponse } from '@gateway/contracts';
import { type TestClockReading, TestClocksService } from '@gateway/domain/test-clocks';
import { TimeRulesService } from '@gateway/domain/time-rules';
import type { DeveloperContext } from '@gateway/platform';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { Idempotent } from '../../http/idempotency/idempotent.decorator';
import { ApiContract } from '../../http/openapi.decorators';

const FOLLOWS =
  'Every time-driven rule for this developer\'s test objects follows it: trials, subscription billing and dunning, overdue invoices, scheduled charges, hold expiry, abandoned checkouts and dispute deadlines (docs/test-clocks.md). Live mode never does. Test keys only (403 `test_mode_required`).';

@ApiTags('Sandbox (test mode)')
@Controller('sandbox/clock')
export class TestClockController {
  constructor(
    private readonly clocks: TestClocksService,
    private readonly rules: TimeRulesService,
  ) {}

  @Get()
  @Authenticated({ scope: 'sandbox:write' })
  @ApiOperation({ summary: 'Read the test clock', description: `This developer's test-mode time and how far it runs ahead of real time. ${FOLLOWS}` })
  @ApiContract({ response: TestClockResponse, errors: ['test_mode_required'] })
  async read(@Tenant() ctx: DeveloperContext): Promise<TestClockResponse> {
    return toResponse(await this.clocks.read(ctx));
  }

  @Post('advance')
  @Idempotent()
  @HttpCode(200)
  @Authenticated({ scope: 'sandbox:write' })
  @ApiOperation({
    summary: 'Advance the test clock',
    description:
      `Moves this developer's test time forward by \`seconds\` (at most ten years ahead of real time in all), then runs every time-driven rule at the new time before answering, so a year of monthly billing happens in one call; \`rules_run\` says what each did. The scheduler keeps running them at the clock's time afterwards. ${FOLLOWS}`,
  })
  @ApiContract({ body: AdvanceTestClockRequest, response: TestClockResponse, errors: ['validation_error', 'test_mode_required'] })
  async advance(@Tenant() ctx: DeveloperContext, @Body() body: AdvanceTestClockRequest): Promise<TestClockResponse> {
    const reading = await this.clocks.advance(ctx, body.seconds);
    const rulesRun = await this.rules.runFor(ctx, reading.now);
    return { ...toResponse(reading), rules_run: rulesRun };
  }

  @Post('reset')
  @Idempotent()
  @HttpCode(200)
  @Authenticated({ scope: 'sandbox:write' })
  @ApiOperation({
    summary: 'Reset the test clock to real time',
    description: `What already happened at the advanced time stays done (a charged period stays charged); each rule then waits for real time to reach its next date. ${FOLLOWS}`,
  })
  @ApiContract({ response: TestClockResponse, errors: ['test_mode_required'] })
  async reset(@Tenant() ctx: DeveloperContext): Promise<TestClockResponse> {
    return toResponse(await this.clocks.reset(ctx));
  }
}

function toResponse(reading: TestClockReading): TestClockResponse {
  return { now: reading.now.toISOString(), offset_seconds: reading.offsetSeconds };
}
