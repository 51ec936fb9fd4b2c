import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TestClockEntity } from './test-clock.entity';
import { TestClocksRepository } from './test-clocks.repository';
import { TestClocksService } from './test-clocks.service';

@Module({
  imports: [TypeOrmModule.forFeature([TestClockEntity])],
  providers: [TestClocksRepository, TestClocksService],
  exports: [TestClocksService],
})
export class TestClocksModule {}
