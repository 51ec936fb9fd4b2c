export { SettlementsModule } from './settlements.module';
export { SETTLEMENT_REFERENCE_PREFIX, SettlementsService, type NewSettlement, type SettlementActor } from './settlements.service';
export { SETTLEMENT_RECONCILE_AFTER_MS, SettlementPayoutsService } from './settlement-payouts.service';
export { AutoSettlementsService, isoWeek } from './auto-settlements.service';
export { toSettlementDecisionResponse, toSettlementResponse } from './settlement.mapper';
export type { SettlementEntity as Settlement } from './settlement.entity';
export type { SettlementDecisionEntity as SettlementDecision } from './settlement-decision.entity';
