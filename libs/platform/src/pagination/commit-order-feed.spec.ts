import { DomainError } from '../errors';
import { decodeFeedPosition, encodeFeedPosition, FEED_START, feedNowPosition, toFeedPage } from './commit-order-feed';

const row = (txid: number, seq: number, horizon = 100) => ({ feed_horizon: String(horizon), feed_txid: String(txid), feed_seq: String(seq), id: `${txid}.${seq}` });
const nothing = (horizon: number) => ({ feed_horizon: String(horizon), feed_txid: null, feed_seq: null, id: null });

describe('commit-order feed pages', () => {
  it('with more rows than the limit, continues right after the last row shown', () => {
    const page = toFeedPage([row(10, 1), row(10, 2), row(11, 3)], FEED_START, 2);
    expect(page.rows.map((r) => r.id)).toEqual(['10.1', '10.2']);
    expect([page.hasMore, page.next]).toEqual([true, { txid: 10n, seq: 2n }]);
  });

  it('caught up, continues at the horizon: rows of still-running transactions (at or above it) come later, filtered-out rows below it are not read again', () => {
    const page = toFeedPage([row(10, 1, 40), row(12, 2, 40)], FEED_START, 5);
    expect([page.hasMore, page.next]).toEqual([false, { txid: 40n, seq: 0n }]);
    expect(toFeedPage([nothing(40)], { txid: 5n, seq: 9n }, 5)).toEqual({ rows: [], next: { txid: 40n, seq: 0n }, hasMore: false });
  });

  it('never moves back before where the read started', () => {
    expect(toFeedPage([nothing(40)], { txid: 55n, seq: 3n }, 5).next).toEqual({ txid: 55n, seq: 3n });
  });

  it('"now" is after the newest row or at the horizon, whichever is later', () => {
    expect(feedNowPosition({ feed_horizon: '40', feed_txid: '55', feed_seq: '7' })).toEqual({ txid: 55n, seq: 7n });
    expect(feedNowPosition({ feed_horizon: '40', feed_txid: '12', feed_seq: '7' })).toEqual({ txid: 40n, seq: 0n });
    expect(feedNowPosition({ feed_horizon: '40', feed_txid: null, feed_seq: null })).toEqual({ txid: 40n, seq: 0n });
  });

  it('round-trips a position through its opaque cursor, and refuses anything else naming the parameter', () => {
    const position = { txid: 4_294_967_296_123n, seq: 9_007_199_254_740_993n };
    expect(decodeFeedPosition(encodeFeedPosition(position))).toEqual(position);
    for (const bad of ['now', 'evt_123', 'MTIz', Buffer.from('1|2|3').toString('base64url'), Buffer.from('-1|2').toString('base64url')]) {
      let error: unknown;
      try {
        decodeFeedPosition(bad, 'after');
      } catch (e) {
        error = e;
      }
      expect([bad, error instanceof DomainError && error.fieldErrors]).toEqual([bad, { after: ['is not a cursor this feed returned'] }]);
    }
  });
});
