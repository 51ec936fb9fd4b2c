import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DomainError } from '@gateway/platform';
import { DataSource } from 'typeorm';
import { Public } from '../../http/auth/authenticated.decorator';
import { SkipRateLimit } from '../../http/throttling/skip-rate-limit.decorator';

@ApiTags('Health')
@Public()
// Probes are polled by load balancers and orchestrators; they must never be refused.
@SkipRateLimit()
@Controller()
export class HealthController {
  constructor(private readonly dataSource: DataSource) {}

  @Get('health')
  @ApiOperation({ summary: 'Liveness: the process is up and serving HTTP.' })
  health(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @HttpCode(200)
  @ApiOperation({ summary: 'Readiness: the database answers and every migration is applied.' })
  async ready(): Promise<{ status: 'ready' }> {
    try {
      await this.dataSource.query('SELECT 1');
    } catch {
      throw new DomainError('service_unavailable', 'The database is not reachable.');
    }
    if (await this.dataSource.showMigrations()) {
      throw new DomainError('service_unavailable', 'Database migrations are pending.');
    }
    return { status: 'ready' };
  }
}
