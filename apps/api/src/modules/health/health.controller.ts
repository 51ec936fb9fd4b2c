import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthResponse, ReadinessResponse } from '@gateway/contracts';
import { DomainError } from '@gateway/platform';
import { DataSource } from 'typeorm';
import { Public } from '../../http/auth/authenticated.decorator';
import { ApiContract } from '../../http/openapi.decorators';
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
  @ApiContract({ response: HealthResponse })
  live(): HealthResponse {
    return { status: 'ok' };
  }

  @Get('ready')
  @HttpCode(200)
  @ApiOperation({ summary: 'Readiness: the database answers and every migration is applied.' })
  @ApiContract({ response: ReadinessResponse, errors: ['service_unavailable'] })
  async ready(): Promise<ReadinessResponse> {
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
