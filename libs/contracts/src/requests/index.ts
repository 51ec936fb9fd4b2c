export * from './request-trace.dto';
