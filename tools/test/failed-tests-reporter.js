const { appendFileSync } = require('node:fs');
const { relative } = require('node:path');

/**
 * Jest reporter (every project's, through jest.preset.js): when TEST_FAILURES_FILE is set, appends
 * each failed test and the first lines of its error to that file. `npm test` sets it and prints the
 * file once every run has ended, so a failure is named in the last lines of a long, interleaved log
 * (tools/test/run-tests.ts). Without the variable it does nothing.
 */
class FailedTestsReporter {
  onRunComplete(_contexts, results) {
    const file = process.env.TEST_FAILURES_FILE;
    if (!file) return;
    const lines = [];
    for (const suite of results.testResults) {
      const where = `${suite.displayName?.name ?? ''} ${relative(process.cwd(), suite.testFilePath)}`.trim();
      if (suite.testExecError) lines.push(`${where}: the file did not run`, ...excerpt(suite.testExecError.message));
      for (const test of suite.testResults) {
        if (test.status === 'failed') lines.push(`${where} › ${test.fullName}`, ...excerpt(test.failureMessages[0] ?? ''));
      }
    }
    if (lines.length > 0) appendFileSync(file, `${lines.join('\n')}\n`);
  }
}

/** The first lines of an error and where it was thrown (the first frame), without colours, indented under its test. */
function excerpt(message) {
  const lines = message.replace(/\x1b\[[0-9;]*m/g, '').split('\n').filter((line) => line.trim() !== '');
  const frame = lines.findIndex((line) => /^\s*at /.test(line));
  const shown = frame === -1 ? lines.slice(0, 8) : [...lines.slice(0, Math.min(frame, 7)), lines[frame]];
  return shown.map((line) => `    ${line.trim()}`);
}

module.exports = FailedTestsReporter;
