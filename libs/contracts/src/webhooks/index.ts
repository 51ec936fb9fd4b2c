export * from './webhook.dto';
