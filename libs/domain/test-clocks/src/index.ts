export { TestClocksModule } from './test-clocks.module';
export { TestClocksService, type TestClockReading } from './test-clocks.service';
export { tenantTimeSql } from './test-clocks.repository';
