import { Module } from '@nestjs/common';
import { TimeRulesModule } from '@gateway/domain/time-rules';
import { TestClockRulesJob } from './test-clock-rules.job';

@Module({ imports: [TimeRulesModule], providers: [TestClockRulesJob] })
export class TestClockRulesModule {}
