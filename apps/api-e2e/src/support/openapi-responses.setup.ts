import { appendFileSync } from 'node:fs';
import { responseValidationEnabled, takeResponseMismatches } from './openapi-responses';

// After every test file: each answer the API gave its tests matched the OpenAPI document (route,
// status, content type, body schema; see openapi-responses.ts). A mismatch fails the file, naming
// the route, the status, the first schema errors and the test that got the answer.
// E2E_RESPONSE_REPORT=<file> appends one JSON line per file (answers checked, mismatches) for counting.
afterAll(() => {
  if (!responseValidationEnabled()) return;
  const { checked, mismatches } = takeResponseMismatches();
  const report = process.env.E2E_RESPONSE_REPORT;
  if (report) appendFileSync(report, `${JSON.stringify({ file: expect.getState().testPath, checked, mismatches: mismatches.length })}\n`);
  if (mismatches.length === 0) return;
  const grouped = new Map<string, { count: number; tests: Set<string> }>();
  for (const m of mismatches) {
    const key = `${m.route} → ${m.status}: ${m.problem}`;
    const entry = grouped.get(key) ?? { count: 0, tests: new Set<string>() };
    entry.count++;
    entry.tests.add(m.test);
    grouped.set(key, entry);
  }
  const lines = [...grouped].map(([key, { count, tests }]) => `  ${key} (×${count}; first in "${[...tests][0]}")`);
  throw new Error(`${mismatches.length} API answer(s) did not match the OpenAPI document:\n${lines.join('\n')}`);
});
