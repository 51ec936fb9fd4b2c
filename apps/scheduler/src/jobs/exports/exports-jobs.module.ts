import { Module } from '@nestjs/common';
import { ExportsModule } from '@gateway/domain/exports';
import { ExportExpiryJob } from './export-expiry.job';

@Module({ imports: [ExportsModule], providers: [ExportExpiryJob] })
export class ExportsJobsModule {}
