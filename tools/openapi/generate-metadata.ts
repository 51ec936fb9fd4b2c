import { readFileSync, writeFileSync } from 'node:fs';
import { METADATA_FILE, renderPluginMetadata } from './plugin-metadata';

/**
 * `npm run openapi:metadata` writes the API's OpenAPI schema metadata from the DTOs;
 * `-- --check` fails when the checked-in file differs from what the DTOs give (run by the api's
 * typecheck target, so CI catches a DTO change whose metadata was not regenerated).
 */
function main(): number {
  const check = process.argv.includes('--check');
  const rendered = renderPluginMetadata();
  if (!check) {
    writeFileSync(METADATA_FILE, rendered);
    process.stdout.write(`wrote ${METADATA_FILE}\n`);
    return 0;
  }
  let current = '';
  try {
    current = readFileSync(METADATA_FILE, 'utf8');
  } catch {
    // A missing file is stale too.
  }
  if (current === rendered) return 0;
  process.stderr.write(`${METADATA_FILE} is out of date with the DTOs in libs/contracts: run \`npm run openapi:metadata\` and commit the result.\n`);
  return 1;
}

process.exit(main());
