export * from './plan.dto';
export * from './subscription.dto';
