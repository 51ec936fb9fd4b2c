export { DevelopersModule } from './developers.module';
export { DevelopersService, type NewDeveloper } from './developers.service';
export type { DeveloperEntity as Developer, SettlementFrequency } from './developer.entity';
