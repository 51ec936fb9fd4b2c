/**
 * Queues a job on the PostgreSQL job queue (graphile-worker) with the caller's connection, so the
 * job commits — and its worker is woken by NOTIFY — with the change that causes it, or not at all.
 * The job key `<task>:<id>` makes queueing the same piece of work twice one job.
 */
export async function enqueueJob(
  db: { query(sql: string, params?: unknown[]): Promise<unknown> },
  task: string,
  id: { name: string; value: string },
  options: { maxAttempts: number; runAt?: Date },
): Promise<void> {
  await db.query(
    `SELECT graphile_worker.add_job($1, json_build_object($2::text, $3::text), run_at => COALESCE($4::timestamptz, now()), job_key => $1 || ':' || $3, max_attempts => $5)`,
    [task, id.name, id.value, options.runAt ?? null, options.maxAttempts],
  );
}
