import { Module } from '@nestjs/common';
import { TestClocksModule } from '@gateway/domain/test-clocks';
import { TimeRulesModule } from '@gateway/domain/time-rules';
import { TestClockController } from './test-clock.controller';

@Module({ imports: [TestClocksModule, TimeRulesModule], controllers: [TestClockController] })
export class TestClocksApiModule {}
