import { runEntry } from './support/processes';

describe('configuration is validated at boot', () => {
  const databaseUrl = process.env.TEST_DATABASE_URL as string;

  it.each([
    ['API_PORT', 'not-a-port'],
    ['API_PORT', '70000'],
    ['DATABASE_URL', 'mysql://root@localhost/db'],
    ['PUBLIC_BASE_URL', 'ftp://example.com'],
    ['LOG_LEVEL', 'verbose'],
  ])('a wrong %s=%s stops the API with one line naming the setting', async (setting, value) => {
    const result = await runEntry('apps/api/src/main.ts', [], { DATABASE_URL: databaseUrl, [setting]: value });
    expect(result.code).toBe(78);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^Configuration error: ${setting} is invalid`));
  });
});
