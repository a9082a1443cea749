import pg from 'pg';
import { prepareValue } from 'pg/lib/utils.js';

/** node-postgres's protocol connection, as far as a prepared statement's execution uses it. */
interface ProtocolConnection {
  bind(config: { portal: string; statement: string | undefined; values: unknown; binary: boolean | undefined; valueMapper: unknown }): void;
  sync(): void;
}

/** What node-postgres builds from a statement's row description, once per execution. */
interface ResultShape {
  fields: pg.FieldDef[];
  _parsers: unknown[] | undefined;
  _prebuiltEmptyResultObject: Record<string, null> | null;
}

/** The members of node-postgres's Query this class reads or calls besides its public ones. */
interface QueryInternals {
  name: string | undefined;
  portal: string;
  values: unknown[] | undefined;
  binary: boolean | undefined;
  rows: number | undefined;
  _result: ResultShape;
  _accumulateRows: boolean;
  hasBeenParsed(connection: ProtocolConnection): boolean;
  handleError(error: unknown, connection: ProtocolConnection): void;
  _getRows(connection: ProtocolConnection, rows: number | undefined): void;
}

/** The shape of each prepared statement's rows, per connection: a statement is prepared per connection, and dies with it. */
const shapesOn = new WeakMap<ProtocolConnection, Map<string, ResultShape>>();

const BaseQuery = pg.Query as unknown as new (config: pg.QueryConfig) => object;

/**
 * A prepared statement's execution that asks PostgreSQL for the rows' description only the first
 * time on a connection. node-postgres asks for it (Describe) on every execution and, from the
 * answer, builds the field list, a parser per column and an empty row again: the largest single
 * allocation of a request, and a message each way, for a description that cannot change while the
 * statement stays prepared (docs/design-record.md, "Per-request cost": "A statement's rows are
 * described once"). Every other step is node-postgres's own.
 */
export class KnownShapeQuery extends BaseQuery {
  /** The connection this execution was written to: where the description it receives is kept. */
  private connection: ProtocolConnection | undefined;

  prepare(connection: ProtocolConnection): void {
    const query = this as unknown as QueryInternals;
    const shape = query.name === undefined ? undefined : shapesOn.get(connection)?.get(query.name);
    if (shape === undefined || !query.hasBeenParsed(connection)) {
      this.connection = connection;
      (pg.Query.prototype as unknown as { prepare(this: unknown, connection: ProtocolConnection): void }).prepare.call(this, connection);
      return;
    }
    try {
      connection.bind({
        portal: query.portal,
        statement: query.name,
        values: query.values,
        binary: query.binary,
        valueMapper: prepareValue,
      });
    } catch (error) {
      // A value that cannot be sent fails this execution only. node-postgres also closes the
      // statement here, while still counting it as prepared, so that its next execution on the
      // connection fails with "prepared statement does not exist"; it stays prepared instead.
      connection.sync();
      query.handleError(error, connection);
      return;
    }
    query._result.fields = shape.fields;
    query._result._parsers = shape._parsers;
    query._result._prebuiltEmptyResultObject = shape._prebuiltEmptyResultObject;
    // As node-postgres decides on a description: the rows are kept for the callback, which the
    // statement layer always gives (query-on.ts).
    query._accumulateRows = true;
    query._getRows(connection, query.rows);
  }

  handleRowDescription(message: unknown): void {
    (pg.Query.prototype as unknown as { handleRowDescription(this: unknown, message: unknown): void }).handleRowDescription.call(
      this,
      message,
    );
    const query = this as unknown as QueryInternals;
    if (query.name === undefined || this.connection === undefined) return;
    let shapes = shapesOn.get(this.connection);
    if (shapes === undefined) shapesOn.set(this.connection, (shapes = new Map<string, ResultShape>()));
    const { fields, _parsers, _prebuiltEmptyResultObject } = query._result;
    shapes.set(query.name, { fields, _parsers, _prebuiltEmptyResultObject });
  }
}
