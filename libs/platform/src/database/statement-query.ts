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

/** A column's parser: its text as PostgreSQL sent it to the value pg gives (pg-types). */
type ColumnParser = (text: string) => unknown;

/** Makes one row from the columns' texts (null for SQL NULL), as pg's Result.parseRow does. */
type RowParser = (values: Array<string | null>) => Record<string, unknown>;

interface ResultInternals {
  command: string | null;
  fields: FieldDescription[];
  _parsers: ColumnParser[];
  _prebuiltEmptyResultObject: object;
  /** The connection's type parsers: one object per pg Client. */
  _types: object;
  /** pg's row maker (objects: runOnClient and runOnPool never ask for rows as arrays). */
  parseRow: RowParser;
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
  parsers: ColumnParser[];
  emptyRow: object;
  /** This shape's rows made by a function written for it (rowParserFor); null: pg's own parseRow. */
  parseRow: RowParser | null;
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
    const shape = { fields: result.fields, parsers: result._parsers, emptyRow: result._prebuiltEmptyResultObject, parseRow: rowParserFor(result.fields, result._parsers) };
    shapes.set(self.name, shape);
    useShape(self, shape);
  }
}

/** What pg's handleRowDescription sets up for the rows to come, from a kept shape. */
function useShape(query: QueryInternals, shape: RowShape): void {
  const result = query._result;
  result.fields = shape.fields;
  result._parsers = shape.parsers;
  result._prebuiltEmptyResultObject = shape.emptyRow;
  if (shape.parseRow) result.parseRow = shape.parseRow;
  query._accumulateRows = Boolean(query.callback) || query.listeners('row').length === 0;
}

/**
 * A row parser written for one shape: an object literal with the columns' names as its keys, each
 * value its column's text through its parser, or null. It makes the row pg's parseRow makes (the
 * same keys in the same order, a later column of a repeated name winning, the parsers called in
 * column order), but as one literal: pg copies an empty row keyed by the names (a copy V8 makes
 * property by property), then stores each column by its name from a single line of code, which V8
 * can only do by looking every name up (a megamorphic store). A GET payment's instructions in the
 * API went down by 5–8 %, initialize's by 6 %, verify's by 3 % (bench:instructions;
 * docs/benchmarks.md, "Rows made by a parser written for their shape").
 * The source holds the names as JSON strings and the values only by position, so a column's name
 * cannot inject code; a column named `__proto__` sets the row's prototype in a literal as pg's store
 * does. Binary columns (never asked for here) are left to pg.
 */
function rowParserFor(fields: FieldDescription[], parsers: ColumnParser[]): RowParser | null {
  if (fields.length === 0 || fields.some((field) => field.format !== 'text')) return null;
  const make = rowMakerFor(fields.map((field) => field.name));
  return (values) => make(values, parsers);
}

type RowMaker = (values: Array<string | null>, parsers: ColumnParser[]) => Record<string, unknown>;

/** One maker per list of column names, shared by every connection (each passes its own parsers): one function for V8 to optimise. */
const rowMakersByNames = new Map<string, RowMaker>();

function rowMakerFor(names: string[]): RowMaker {
  const key = JSON.stringify(names);
  let make = rowMakersByNames.get(key);
  if (!make) {
    const columns = names.map((name, i) => `${JSON.stringify(name)}: values[${i}] === null ? null : parsers[${i}](values[${i}])`);
    make = new Function('values', 'parsers', `return { ${columns.join(', ')} };`) as RowMaker;
    rowMakersByNames.set(key, make);
  }
  return make;
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
