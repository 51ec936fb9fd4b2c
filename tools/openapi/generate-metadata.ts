import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { METADATA_DIR, renderPluginMetadata } from './plugin-metadata';

/**
 * `npm run openapi:metadata` writes the API's OpenAPI schema metadata from the DTOs (one module per
 * contracts folder in METADATA_DIR); `-- --check` fails when a checked-in module differs from what
 * the DTOs give, or one is missing or left over (run by the api's typecheck target, so CI catches a
 * DTO change whose metadata was not regenerated).
 */
function main(): number {
  const check = process.argv.includes('--check');
  const rendered = renderPluginMetadata();
  const present = existsSync(METADATA_DIR) ? readdirSync(METADATA_DIR).filter((name) => name.endsWith('.ts')) : [];
  if (!check) {
    mkdirSync(METADATA_DIR, { recursive: true });
    for (const name of present) if (!rendered.has(name)) rmSync(join(METADATA_DIR, name));
    for (const [name, text] of rendered) writeFileSync(join(METADATA_DIR, name), text);
    process.stdout.write(`wrote ${rendered.size} modules to ${METADATA_DIR}\n`);
    return 0;
  }
  const stale = [...rendered].filter(([name, text]) => !present.includes(name) || readFileSync(join(METADATA_DIR, name), 'utf8') !== text).map(([name]) => name);
  const leftOver = present.filter((name) => !rendered.has(name));
  if (stale.length === 0 && leftOver.length === 0) return 0;
  process.stderr.write(
    `${METADATA_DIR} is out of date with the DTOs in libs/contracts (${[...stale, ...leftOver].join(', ')}): run \`npm run openapi:metadata\` and commit the result.\n`,
  );
  return 1;
}

process.exit(main());
