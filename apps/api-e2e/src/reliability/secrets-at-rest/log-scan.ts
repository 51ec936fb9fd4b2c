import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { type Finding, type KnownSecrets, secretsIn } from './patterns';

export interface LogScan {
  files: number;
  lines: number;
  findings: Finding[];
}

/** Every line of every application log: no merchant metadata there, so not even a test card may appear. */
export function scanLogs(files: readonly string[], known: KnownSecrets): LogScan {
  const findings: Finding[] = [];
  let lines = 0;
  for (const file of files) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        lines++;
        findings.push(...secretsIn(line, `log ${basename(file)}:${index + 1}`, false, known));
      });
  }
  return { files: files.length, lines, findings };
}
