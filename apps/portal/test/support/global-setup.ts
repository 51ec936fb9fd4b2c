import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// Relative: jest loads global setup and teardown modules without the path aliases.
// eslint-disable-next-line @nx/enforce-module-boundaries
import createWorkerDatabases from '../../../../libs/platform/src/testing/worker-databases';
import { BUILD_DIR_VARIABLE, servesNxBuild } from './portal-build';

/**
 * The portal's jest globalSetup: the run's databases (worker-databases.ts) and, unless the specs
 * serve Nx's build (PORTAL_TEST_BUILD=built), the directory of the run's one build (portal-build.ts).
 */
export default async function globalSetup(...args: Parameters<typeof createWorkerDatabases>): Promise<void> {
  await createWorkerDatabases(...args);
  if (!servesNxBuild()) process.env[BUILD_DIR_VARIABLE] = mkdtempSync(join(tmpdir(), 'gateway-portal-build-'));
}
