import type { AppConfig } from '../config';
import { startEmbeddedPostgres } from './embedded-postgres';

export interface ResolvedDatabase {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

/** DATABASE_URL when configured, otherwise the embedded PostgreSQL server. */
export async function resolveDatabase(
  config: AppConfig,
  log: (line: string) => void = () => undefined,
): Promise<ResolvedDatabase> {
  if (config.database.url) {
    return { url: config.database.url, embedded: false, stop: async () => undefined };
  }
  const embedded = await startEmbeddedPostgres({
    dir: config.database.embeddedDir,
    port: config.database.embeddedPort,
    log,
  });
  return { url: embedded.url, embedded: true, stop: embedded.stop };
}
