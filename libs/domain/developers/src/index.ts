export { DevelopersModule } from './developers.module';
export { DevelopersService, type NewDeveloper, type SettlementAccount } from './developers.service';
export type { DeveloperEntity as Developer, SettlementFrequency } from './developer.entity';
