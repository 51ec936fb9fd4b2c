export { TimeRulesModule } from './time-rules.module';
export { TimeRulesService, type TimeRuleName, type TimeRulesReport } from './time-rules.service';
