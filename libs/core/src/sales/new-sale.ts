import { SALE_ITEM_TYPES, type SaleItemType } from '#database/entities/sale-item.entity.js';
import { SALE_STATUSES, type SaleStatus } from '#database/entities/sale.entity.js';
import { validationFailed, type FieldError } from '../errors/domain-error.js';
import { isUuid } from '../ids/uuid.js';
import { saleTotals } from './sale-totals.js';

/** A sale as the business records it (`admin sale record --file`): the docs/design-record.md#d8 fields it chooses, by id. */
export interface NewSale {
  clientId: string | null;
  appointmentId: string | null;
  status: SaleStatus;
  paymentPending: boolean;
  items: NewSaleItem[];
  /** A discount on the whole sale, beside the items' own (0 when none). */
  discountCents: number;
  /** Stored, never returned by the API. */
  internalNote: string | null;
}

export interface NewSaleItem {
  type: SaleItemType;
  name: string;
  serviceId: string | null;
  quantity: number;
  unitPriceCents: number;
  discountCents: number;
  /** Stored, never returned by the API. */
  costCents: number | null;
}

const SALE_FIELDS = ['clientId', 'appointmentId', 'status', 'paymentPending', 'items', 'discountCents', 'internalNote'];
const ITEM_FIELDS = ['type', 'name', 'serviceId', 'quantity', 'unitPriceCents', 'discountCents', 'costCents'];
const MAX_INTEGER = 2_147_483_647;

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads one object's fields, recording a problem per bad field (JSON Pointer paths) and carrying on. */
class FieldReader {
  private readonly failed = new Set<string>();

  constructor(
    private readonly raw: JsonObject,
    private readonly at: string,
    private readonly problems: FieldError[],
    allowed: readonly string[],
  ) {
    for (const key of Object.keys(raw)) {
      if (!allowed.includes(key)) this.fail(key, `is not a known field (known: ${allowed.join(', ')})`);
    }
  }

  fail(field: string, message: string): void {
    this.failed.add(field);
    this.problems.push({ path: `${this.at}/${field}`, message });
  }

  hasFailed(...fields: string[]): boolean {
    return fields.some((field) => this.failed.has(field));
  }

  optionalId(field: string): string | null {
    const value = this.raw[field];
    if (value === undefined || value === null) return null;
    if (typeof value === 'string' && isUuid(value)) return value.toLowerCase();
    this.fail(field, 'must be a UUID or null');
    return null;
  }

  text(field: string, max: number): string {
    const value = this.raw[field];
    if (typeof value === 'string' && value.trim() !== '' && value.length <= max) return value.trim();
    this.fail(field, value === undefined ? 'is required' : `must be 1 to ${max} characters`);
    return '';
  }

  optionalText(field: string, max: number): string | null {
    const value = this.raw[field];
    return value === undefined || value === null || value === '' ? null : this.text(field, max);
  }

  integer(field: string, min: number, fallback?: number): number {
    const value = this.raw[field];
    if (value === undefined && fallback !== undefined) return fallback;
    if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= MAX_INTEGER) return value;
    this.fail(field, value === undefined ? 'is required' : `must be an integer from ${min} to ${MAX_INTEGER}`);
    return min;
  }

  optionalInteger(field: string, min: number): number | null {
    const value = this.raw[field];
    return value === undefined || value === null ? null : this.integer(field, min);
  }

  flag(field: string, fallback: boolean): boolean {
    const value = this.raw[field];
    if (value === undefined) return fallback;
    if (typeof value === 'boolean') return value;
    this.fail(field, 'must be true or false');
    return fallback;
  }

  choice<T extends string>(field: string, values: readonly T[], fallback?: T): T {
    const value = this.raw[field];
    if (value === undefined && fallback !== undefined) return fallback;
    const known = values.find((v) => v === value);
    if (known !== undefined) return known;
    this.fail(field, value === undefined ? 'is required' : `must be one of ${values.join(', ')}`);
    return values[0];
  }

  list(field: string): unknown[] {
    const value = this.raw[field];
    if (Array.isArray(value) && value.length > 0) return value as unknown[];
    this.fail(field, 'must be an array with at least one item');
    return [];
  }
}

function readItem(raw: unknown, at: string, problems: FieldError[]): NewSaleItem {
  if (!isObject(raw)) {
    problems.push({ path: at, message: 'must be an object' });
    return { type: 'OTHER', name: '', serviceId: null, quantity: 1, unitPriceCents: 0, discountCents: 0, costCents: null };
  }
  const f = new FieldReader(raw, at, problems, ITEM_FIELDS);
  const item: NewSaleItem = {
    type: f.choice('type', SALE_ITEM_TYPES),
    name: f.text('name', 200),
    serviceId: f.optionalId('serviceId'),
    quantity: f.integer('quantity', 1),
    unitPriceCents: f.integer('unitPriceCents', 0),
    discountCents: f.integer('discountCents', 0, 0),
    costCents: f.optionalInteger('costCents', 0),
  };
  // The amounts are only compared once each is valid on its own: one mistake, one problem.
  if (f.hasFailed('quantity', 'unitPriceCents', 'discountCents')) return item;
  const gross = item.quantity * item.unitPriceCents;
  if (gross > MAX_INTEGER) f.fail('quantity', `times unitPriceCents must not exceed ${MAX_INTEGER}`);
  else if (item.discountCents > gross) f.fail('discountCents', 'must not exceed quantity × unitPriceCents');
  return item;
}

/**
 * Reads a sale file: every problem is reported at once (VALIDATION_FAILED, each with its JSON
 * Pointer). Unknown fields are refused, so a typo never goes unnoticed. Whether the ids belong to
 * the business is checked when it is recorded.
 */
export function readNewSale(json: unknown): NewSale {
  const problems: FieldError[] = [];
  if (!isObject(json)) throw validationFailed([{ path: '', message: 'must be a JSON object with an items array' }]);
  const f = new FieldReader(json, '', problems, SALE_FIELDS);
  const sale: NewSale = {
    clientId: f.optionalId('clientId'),
    appointmentId: f.optionalId('appointmentId'),
    status: f.choice('status', SALE_STATUSES, 'COMPLETED'),
    paymentPending: f.flag('paymentPending', false),
    items: f.list('items').map((item, index) => readItem(item, `/items/${index}`, problems)),
    discountCents: f.integer('discountCents', 0, 0),
    internalNote: f.optionalText('internalNote', 5000),
  };
  if (problems.length === 0 && sale.discountCents > saleTotals(sale.items, 0).subtotalCents) {
    f.fail('discountCents', "must not exceed the sum of the items' totals");
  }
  if (problems.length > 0) throw validationFailed(problems);
  return sale;
}
