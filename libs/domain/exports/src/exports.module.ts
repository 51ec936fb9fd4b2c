import { Inject, Logger, Module, type OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CustomersModule } from '@gateway/domain/customers';
import { DevelopersModule } from '@gateway/domain/developers';
import { DisputesModule } from '@gateway/domain/disputes';
import { IdentityModule } from '@gateway/domain/identity';
import { InvoicesModule } from '@gateway/domain/invoices';
import { LedgerModule } from '@gateway/domain/ledger';
import { PaymentsModule } from '@gateway/domain/payments';
import { RefundsModule } from '@gateway/domain/refunds';
import { SettlementsModule } from '@gateway/domain/settlements';
import { TestClocksModule } from '@gateway/domain/test-clocks';
import { TransfersModule } from '@gateway/domain/transfers';
import { APP_CONFIG, type AppConfig } from '@gateway/platform';
import { ExportEntity } from './export.entity';
import { ExportExpiryService } from './export-expiry.service';
import { ExportRunner } from './export-runner.service';
import { ExportSources } from './export-sources';
import { ExportStorage, exportStorageFor } from './export-storage';
import { ExportsRepository } from './exports.repository';
import { ExportsService } from './exports.service';

/** CSV exports (table `exports`, docs/exports.md): requests, the file writer, downloads and expiry. */
@Module({
  imports: [
    TypeOrmModule.forFeature([ExportEntity]),
    PaymentsModule,
    RefundsModule,
    LedgerModule,
    CustomersModule,
    TransfersModule,
    SettlementsModule,
    DisputesModule,
    InvoicesModule,
    DevelopersModule,
    IdentityModule,
    TestClocksModule,
  ],
  providers: [
    ExportsRepository,
    ExportSources,
    ExportsService,
    ExportRunner,
    ExportExpiryService,
    { provide: ExportStorage, inject: [APP_CONFIG], useFactory: (config: AppConfig) => exportStorageFor(config.exports.storage) },
  ],
  exports: [ExportsService, ExportRunner, ExportExpiryService],
})
export class ExportsModule implements OnModuleInit {
  constructor(@Inject(ExportStorage) private readonly storage: ExportStorage) {}

  onModuleInit(): void {
    new Logger('Exports').log(`Export files: ${this.storage.describe()}`);
  }
}
