/**
 * API instances cache who a key belongs to and what it may do. Any change to keys, allowlists or
 * a developer's verification status is announced on this channel (from inside the changing
 * transaction, so it is delivered at commit) and every instance drops its cache at once.
 */
export const ACCESS_CHANGED_CHANNEL = 'gateway_access_changed';

export async function notifyAccessChanged(db: { query(sql: string, params?: unknown[]): Promise<unknown> }, reason: string): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [ACCESS_CHANGED_CHANNEL, reason]);
}
