export { DevelopersModule } from './developers.module';
export {
  developerStatus,
  DevelopersService,
  type DeveloperChange,
  type DeveloperChangeRecorder,
  type DeveloperStatus,
  type NewDeveloper,
  type SettlementAccount,
  type StaffAction,
} from './developers.service';
export type { DeveloperSearch } from './developers.repository';
export type { DeveloperFeeOverrideChangeEntity as FeeOverrideChange } from './developer-fee-override-change.entity';
export type { DeveloperEntity as Developer, SettlementFrequency } from './developer.entity';
