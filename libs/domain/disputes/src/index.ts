export { DisputesModule } from './disputes.module';
export { DisputesService } from './disputes.service';
export { DisputeOutcomesService, DEFAULT_EVIDENCE_WINDOW_MS } from './dispute-outcomes.service';
export { toDisputeResponse } from './dispute.mapper';
export type { DisputeEvidence } from './dispute.entity';
