import type { MigrationInterface, QueryRunner } from 'typeorm';
import { buildIndexesOnline, type OnlineIndex, removeIndexesOnline } from './online-index';

/**
 * The filters IndexListFilters left to a walk of the account, found when the list benchmark came to
 * seed every list with millions of rows (docs/benchmarks.md, "The event feed by name" and "The
 * remaining lists"): the event feed by name was a filter on the feed's order, settlements and plans
 * were thought to stay small, and a range of invoice due dates was read through an index of due
 * dates and then sorted.
 * - the event feed by name (`GET /api/v1/events?type=…`): each named event's own range of
 *   events_feed_by_name is read from the position, at most a page of each, and the ranges merged
 *   in feed order (EventsFeedRepository), so a page costs the same whether the names are common
 *   or absent. Through `events_feed` alone a name the account rarely or never emits was looked for
 *   in every event after the position. It takes the place of `events_listing` (newest first by
 *   creation time), which no statement has read since the feed replaced listing by time: an event
 *   is written into as many indexes as before;
 * - settlements by status and by currency, and plans by active, interval and currency: each an
 *   index leading with the tenant and the filtered column, then the list's order, as for the other
 *   lists. Settlements by status went through the approvals queue's (status, created_at), every
 *   account's rows of the status, before;
 * - invoices by due date: the list is newest first by creation, and a due range matches rows
 *   anywhere in that order (an invoice is due after it is made, but by any term). One GiST index over
 *   the status, the due date and the creation time (btree_gist, as the wallet list's time range) lets
 *   a scan skip what is outside the range, and outside the status when one is asked, and return the
 *   rest nearest the newest first (InvoicesRepository.dueInRange), in place of the btree on due dates,
 *   which sorted every match. Without the status in it, a status absent from a wide range read the
 *   whole range (`status=sent&due_to=` 200 days ago: 3.3 s at 10,000,000 invoices; 0.8 ms with it).
 *
 * Online, so it runs outside a transaction: built CONCURRENTLY, writes go on meanwhile.
 */
const listing = (table: string, column: string, label = column): OnlineIndex => ({ name: `${table}_${label}_listing`, definition: `${table} (developer_id, mode, ${column}, created_at DESC, id DESC)` });

const INDEXES: OnlineIndex[] = [
  {
    name: 'events_feed_by_name',
    definition: 'events (developer_id, mode, name, feed_txid, feed_seq) WHERE feed_txid IS NOT NULL',
    replaces: { name: 'events_listing', definition: 'events (developer_id, mode, created_at DESC, id DESC)' },
  },
  listing('settlements', 'status'),
  listing('settlements', 'currency'),
  listing('subscription_plans', 'active'),
  listing('subscription_plans', '"interval"', 'interval'),
  listing('subscription_plans', 'currency'),
  {
    name: 'invoices_due_by_time',
    definition: 'invoices USING gist (developer_id, mode, status, due_date, created_at)',
    replaces: { name: 'invoices_due_date', definition: 'invoices (developer_id, mode, due_date)' },
  },
];

export class IndexRemainingListFilters1764003800000 implements MigrationInterface {
  name = 'IndexRemainingListFilters1764003800000';
  // CREATE INDEX CONCURRENTLY cannot run in a transaction.
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await buildIndexesOnline(q, INDEXES);
  }

  async down(q: QueryRunner): Promise<void> {
    await removeIndexesOnline(q, INDEXES);
  }
}
