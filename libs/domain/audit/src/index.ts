export { AuditModule } from './audit.module';
export { AuditService } from './audit.service';
export {
  AUDIT_ACTOR_TYPES,
  operatorActor,
  SYSTEM_ACTOR,
  type AuditActor,
  type AuditActorType,
  type AuditEntry,
  type AuditEvent,
  type AuditFilter,
  type AuditState,
} from './audit-event';
