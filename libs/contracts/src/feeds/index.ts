export * from './feed.dto';
