export * from './envelope.dto';
