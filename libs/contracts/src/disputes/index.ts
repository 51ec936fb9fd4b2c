export * from './dispute.dto';
