import { rmSync } from 'node:fs';
// Relative: jest loads global setup and teardown modules without the path aliases.
// eslint-disable-next-line @nx/enforce-module-boundaries
import dropRunDatabases from '../../../../libs/platform/src/testing/global-teardown';
import { BUILD_DIR_VARIABLE } from './portal-build';

export default async function globalTeardown(): Promise<void> {
  const buildDir = process.env[BUILD_DIR_VARIABLE];
  if (buildDir) rmSync(buildDir, { recursive: true, force: true });
  await dropRunDatabases();
}
