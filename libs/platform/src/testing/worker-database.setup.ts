import { workerDatabaseUrl } from './worker-databases';

// Jest setupFiles of the projects with a database per worker (worker-databases.ts): before each
// test file, TEST_DATABASE_URL names this worker's database. Each file's environment has its own
// copy of process.env, so this is set again for every file.
const own = workerDatabaseUrl();
if (own) process.env.TEST_DATABASE_URL = own;
