/** The database URL the job-queue worker connects with (its own pool, LISTEN needs a session). */
export const DATABASE_URL = Symbol('DATABASE_URL');
