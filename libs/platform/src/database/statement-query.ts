// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- a declaration every project compiling this file needs, not an import
/// <reference path="./pg-utils.d.ts" />
import { type Client, type Pool, type PoolClient, Query, type QueryResultRow } from 'pg';
import { prepareValue } from 'pg/lib/utils';

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
  name: string;
  text: string;
  values: unknown[];
  _result: ResultInternals;
  _accumulateRows: boolean;
  callback?: unknown;
  listeners(event: string): unknown[];
  handleError(error: unknown, connection: StatementConnection): void;
  /** Execute, then sync: the end of pg's prepare. */
  _getRows(connection: StatementConnection, rows: undefined): void;
}

/** pg's Connection, as far as this file uses it. */
interface StatementConnection {
  /** The statements parsed on this connection: name to text. */
  parsedStatements: Record<string, string | undefined>;
  bind(config: { portal: string; statement: string; values: unknown[]; valueMapper: (value: unknown) => unknown }): void;
}

interface RowShape {
  fields: FieldDescription[];
  parsers: unknown[];
  emptyRow: object;
}

type PgQueryMethods = {
  handleRowDescription(this: Query, message: { fields: FieldDescription[] }): void;
  prepare(this: Query, connection: StatementConnection): void;
};
const { handleRowDescription: readRowDescription, prepare: parseBindDescribeExecute } = Query.prototype as unknown as PgQueryMethods;

/** Per connection (keyed by its type parsers, which live as long as it), per statement name: the shape its rows came in. */
const shapesByConnection = new WeakMap<object, Map<string, RowShape>>();

/**
 * One run of a named statement that asks PostgreSQL to describe its rows only on the statement's
 * first run on a connection. A description costs PostgreSQL a message per run, and pg a parse of
 * every column's name and types, then a parser per column and an empty row keyed by names it has
 * just decoded (new strings, hashed again each time): for a payment's 47 columns, about 150,000
 * of a GET payment's 790,000 instructions in the API (bench:instructions). A prepared statement's columns cannot
 * change while its connection holds it (PostgreSQL refuses to run it if they would, with the
 * same error whether or not the run is described), so the first description serves every later
 * run on that connection. A run that is described anyway (the statement was parsed again) is
 * compared with the kept shape, and a different shape is read afresh.
 */
class StatementQuery extends Query {
  /** pg's extended-protocol run (parse if new, bind, describe, execute, sync), without the describe once the shape is known. */
  prepare(connection: StatementConnection): void {
    const self = this as unknown as QueryInternals;
    const known = connection.parsedStatements[self.name] === self.text ? shapesByConnection.get(self._result._types)?.get(self.name) : undefined;
    if (!known) return parseBindDescribeExecute.call(this, connection);
    useShape(self, known);
    // pg's prepare from here on, less its describe (pg 8.16, query.js).
    try {
      connection.bind({ portal: '', statement: self.name, values: self.values, valueMapper: prepareValue });
    } catch (error) {
      // A value pg cannot map (prepareValue throws): the run fails before anything is sent.
      self.handleError(error, connection);
      return;
    }
    self._getRows(connection, undefined);
  }

  handleRowDescription(message: { fields: FieldDescription[] }): void {
    const self = this as unknown as QueryInternals;
    const result = self._result;
    // A second result set (several statements in one text): pg's own handling, nothing kept.
    if (result.command !== null) return readRowDescription.call(this, message);
    let shapes = shapesByConnection.get(result._types);
    const known = shapes?.get(self.name);
    if (known && sameFields(known.fields, message.fields)) return useShape(self, known);
    readRowDescription.call(this, message);
    if (!shapes) shapesByConnection.set(result._types, (shapes = new Map()));
    shapes.set(self.name, { fields: result.fields, parsers: result._parsers, emptyRow: result._prebuiltEmptyResultObject });
  }
}

/** What pg's handleRowDescription sets up for the rows to come, from a kept shape. */
function useShape(query: QueryInternals, shape: RowShape): void {
  const result = query._result;
  result.fields = shape.fields;
  result._parsers = shape.parsers;
  result._prebuiltEmptyResultObject = shape.emptyRow;
  query._accumulateRows = Boolean(query.callback) || query.listeners('row').length === 0;
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
