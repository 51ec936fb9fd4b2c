import { type Client, type Pool, type PoolClient, Query, type QueryResultRow } from 'pg';

/** A named statement's text and parameters, as runStatement sends them. */
export interface StatementCall {
  readonly name: string;
  readonly text: string;
  readonly values: unknown[];
}

export interface StatementResult<R> {
  rows: R[];
  rowCount: number | null;
}

/** What pg (8.16, pinned in package.json) keeps of a row description; prepared-statement.int-spec.ts fails if that changes. */
interface FieldDescription {
  name: string;
  dataTypeID: number;
  format: string;
}

interface ResultInternals {
  command: string | null;
  fields: FieldDescription[];
  _parsers: unknown[];
  _prebuiltEmptyResultObject: object;
  /** The connection's type parsers: one object per pg Client. */
  _types: object;
}

interface QueryInternals {
  _result: ResultInternals;
  _accumulateRows: boolean;
  callback?: unknown;
  listeners(event: string): unknown[];
}

interface RowShape {
  fields: FieldDescription[];
  parsers: unknown[];
  emptyRow: object;
}

const readRowDescription = (Query.prototype as unknown as { handleRowDescription(this: Query, message: { fields: FieldDescription[] }): void })
  .handleRowDescription;

/** Per connection (keyed by its type parsers, which live as long as it), per statement name: the shape its rows came in. */
const shapesByConnection = new WeakMap<object, Map<string, RowShape>>();

/**
 * One run of a named statement that reuses the row description its connection received before.
 * PostgreSQL describes the rows of every execution, and pg turns each description into a parser
 * per column and an empty row keyed by names it has just decoded (new strings, hashed again each
 * time): for a payment's 47 columns, a few microseconds of every hot query and the largest single
 * item of pg in the API's profile. A prepared statement's columns cannot change while its
 * connection holds it (PostgreSQL refuses to run it if they would), and each description is still
 * compared with the kept one, so a different shape is read afresh.
 */
class StatementQuery extends Query {
  handleRowDescription(message: { fields: FieldDescription[] }): void {
    const self = this as unknown as QueryInternals;
    const result = self._result;
    // A second result set (several statements in one text): pg's own handling, nothing kept.
    if (result.command !== null) return readRowDescription.call(this, message);
    const name = (this as unknown as { name: string }).name;
    let shapes = shapesByConnection.get(result._types);
    const known = shapes?.get(name);
    if (known && sameFields(known.fields, message.fields)) {
      result.fields = known.fields;
      result._parsers = known.parsers;
      result._prebuiltEmptyResultObject = known.emptyRow;
      self._accumulateRows = Boolean(self.callback) || self.listeners('row').length === 0;
      return;
    }
    readRowDescription.call(this, message);
    if (!shapes) shapesByConnection.set(result._types, (shapes = new Map()));
    shapes.set(name, { fields: result.fields, parsers: result._parsers, emptyRow: result._prebuiltEmptyResultObject });
  }
}

function sameFields(known: FieldDescription[], received: FieldDescription[]): boolean {
  if (known.length !== received.length) return false;
  for (let i = 0; i < known.length; i++) {
    const a = known[i];
    const b = received[i];
    if (a.dataTypeID !== b.dataTypeID || a.format !== b.format || a.name !== b.name) return false;
  }
  return true;
}

/** Runs `call` on a connection the caller holds (a transaction's). */
export function runOnClient<R extends QueryResultRow>(client: Client | PoolClient, call: StatementCall): Promise<StatementResult<R>> {
  return new Promise((resolve, reject) => {
    client.query(
      new StatementQuery({ name: call.name, text: call.text, values: call.values }, (error, result) =>
        error ? reject(error) : resolve(result as unknown as StatementResult<R>),
      ),
    );
  });
}

/**
 * Runs `call` on a pooled connection, exactly as `pool.query` would: the connection goes back to
 * the pool after it, and is closed instead when the statement failed or the connection broke.
 */
export function runOnPool<R extends QueryResultRow>(pool: Pool, call: StatementCall): Promise<StatementResult<R>> {
  return new Promise((resolve, reject) => {
    pool.connect((connectError, client, release) => {
      if (connectError || !client) return reject(connectError);
      let released = false;
      const finish = (error: Error | undefined, result?: unknown): void => {
        if (released) return;
        released = true;
        client.removeListener('error', finish);
        release(error);
        if (error) reject(error);
        else resolve(result as StatementResult<R>);
      };
      client.once('error', finish);
      try {
        client.query(new StatementQuery({ name: call.name, text: call.text, values: call.values }, finish));
      } catch (error) {
        finish(error as Error);
      }
    });
  });
}
