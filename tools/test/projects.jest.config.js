const { join } = require('node:path');
const { createProjectGraphAsync } = require('@nx/devkit');
const preset = require('../../jest.preset.js');

/** Projects whose tests `npm test` runs in stages of their own (tools/test/run-tests.ts). */
const RUN_APART = ['api-e2e', 'portal'];

const WORKSPACE_ROOT = join(__dirname, '../..');

/**
 * The middle stage of `npm test`: the tests of every other project with a `test` target (the
 * libraries, the apps' unit tests, the SDK, the tools) in one jest run on two workers. Run project
 * by project (`nx run-many`), each started Nx's executor, Jest, SWC and its databases again: 34
 * start-ups, 130 s and 220 s of CPU on two cores, against 92 s and 142 s in one run
 * (docs/benchmarks.md, "The test suite"). Each project keeps its own configuration; the projects
 * with a database share one per worker (libs/platform/src/testing/worker-databases.ts).
 * PROJECTS_WORKERS sets how many workers. `npx nx test <project>` still runs one project alone.
 *
 * @returns {Promise<import('jest').Config>}
 */
module.exports = async () => ({
  projects: await jestConfigsOfTestTargets(),
  // Options of the whole run, which jest takes from here and not from each project's (preset).
  reporters: preset.reporters,
  testTimeout: preset.testTimeout,
  maxWorkers: Number(process.env.PROJECTS_WORKERS) || 2,
});

/** The jest configuration of each project's `test` target, but those of RUN_APART. */
async function jestConfigsOfTestTargets() {
  const graph = await createProjectGraphAsync({ exitOnError: true });
  const configs = [];
  for (const [name, { data }] of Object.entries(graph.nodes)) {
    const test = data.targets?.test;
    if (!test || RUN_APART.includes(name)) continue;
    // Every test target is `jest -c <config>` from the workspace root, with no other option and
    // nothing to run first; one that is not would not run here as its target says, so it fails
    // the run instead of being run differently.
    const plain = Object.keys(test.options ?? {}).length === 1 && !test.dependsOn?.length;
    const config = plain ? /^jest -c (\S+)$/.exec(test.options.command ?? '')?.[1] : undefined;
    if (!config) throw new Error(`${name}: its test target is not \`jest -c <config>\` (${JSON.stringify(test)}); run it in a stage of its own in tools/test/run-tests.ts`);
    configs.push(join(WORKSPACE_ROOT, config));
  }
  return configs.sort();
}

module.exports.RUN_APART = RUN_APART;
