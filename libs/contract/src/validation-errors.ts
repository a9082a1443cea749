import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from './schema-compiler.js';
import { VISIBLE_TEXT_MESSAGE, VISIBLE_TEXT_PATTERN } from './visible-text.js';

/** The contract's two text rules (single- and multi-line), said in words rather than as their pattern. */
const TEXT_PATTERN_MESSAGES: Readonly<Record<string, string>> = {
  '^[^\\x00-\\x1F\\x7F]*$': 'must be one line of text, without control characters (U+0000–U+001F, U+007F)',
  '^[^\\x00-\\x08\\x0B-\\x1F\\x7F]*$': 'must not contain control characters other than line feed (U+000A) and tab (U+0009)',
  // A metadata value and key (the Metadata schema, docs/design-record.md#d23).
  [VISIBLE_TEXT_PATTERN]: VISIBLE_TEXT_MESSAGE,
  '^[A-Za-z0-9_.-]{1,40}$': 'must be 1 to 40 characters of A-Z a-z 0-9 _ . -',
};

export interface FieldProblem {
  /** JSON Pointer to the offending value. */
  path: string;
  message: string;
}

type SchemaObject = Record<string, unknown>;

/** A name as one JSON Pointer reference token (RFC 6901): `~` and `/` escaped. */
export const pointerToken = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1');

/** Makes `#/…` references of a schema taken out of the document point back into it. */
export function anchorRefs(value: unknown, documentId: string): unknown {
  if (Array.isArray(value)) return value.map((v) => anchorRefs(v, documentId));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `${documentId}${v}` : anchorRefs(v, documentId),
      ]),
    );
  }
  return value;
}

/**
 * Turns Ajv's errors into one clear message per field. For a oneOf/anyOf that failed, Ajv reports
 * every branch's complaints; the caller most likely meant the branch that came closest, so only
 * that branch's errors are kept.
 */
export class ValidationErrorFormatter {
  private readonly branchValidators = new WeakMap<object, ValidateFunction>();

  constructor(
    private readonly ajv: Ajv2020,
    private readonly documentId: string,
  ) {}

  format(errors: ErrorObject[] | null | undefined, data: unknown, prefix = ''): FieldProblem[] {
    const all = errors ?? [];
    const composite = all
      .filter((e) => (e.keyword === 'oneOf' || e.keyword === 'anyOf') && e.parentSchema)
      .sort((a, b) => a.instancePath.length - b.instancePath.length)[0];
    if (composite) {
      const at = composite.instancePath;
      const inside = (e: ErrorObject) => e.instancePath === at || e.instancePath.startsWith(`${at}/`);
      const rest = all.filter((e) => !inside(e));
      const branchProblems = this.closestBranch(composite, valueAt(data, at), prefix + at);
      return dedupe([...this.format(rest, data, prefix), ...branchProblems]);
    }
    // Ajv reports a bad property name twice: the rule it broke (with propertyName) and propertyNames itself.
    const named = new Set(all.map((e) => (e as { propertyName?: string }).propertyName).filter((name) => name !== undefined));
    const said = all.filter(
      (e) => !(e.keyword === 'propertyNames' && named.has(String((e.params as { propertyName?: unknown }).propertyName))),
    );
    return dedupe(said.map((e) => this.describe(e, prefix)));
  }

  private closestBranch(error: ErrorObject, value: unknown, path: string): FieldProblem[] {
    const parent = error.parentSchema as SchemaObject;
    const branches = (parent[error.keyword] as object[]) ?? [];
    if (error.keyword === 'oneOf' && (error.params as { passingSchemas?: unknown }).passingSchemas) {
      return [{ path, message: 'matches more than one of the allowed forms' }];
    }
    let best: FieldProblem[] | undefined;
    for (const branch of branches) {
      const validate = this.validatorFor(branch);
      if (validate(value)) return [];
      const problems = this.format(validate.errors, value, path);
      if (!best || problems.length < best.length) best = problems;
    }
    return best ?? [{ path, message: 'does not match any allowed form' }];
  }

  private validatorFor(branch: object): ValidateFunction {
    let validate = this.branchValidators.get(branch);
    if (!validate) {
      validate = this.ajv.compile(anchorRefs(branch, this.documentId) as SchemaObject);
      this.branchValidators.set(branch, validate);
    }
    return validate;
  }

  private describe(error: ErrorObject, prefix: string): FieldProblem {
    const base = prefix + error.instancePath;
    const params = error.params as Record<string, unknown>;
    // A property name that breaks propertyNames (a metadata key): the error names the key itself.
    const propertyName = (error as { propertyName?: string }).propertyName;
    if (propertyName !== undefined) {
      return {
        path: `${base}/${pointerToken(propertyName)}`,
        message: `is not an allowed key: ${this.describe({ ...error, propertyName: undefined } as ErrorObject, '').message}`,
      };
    }
    switch (error.keyword) {
      case 'propertyNames':
        return { path: `${base}/${pointerToken(String(params.propertyName))}`, message: 'is not an allowed key' };
      case 'maxProperties':
        return { path: base, message: `must have at most ${String(params.limit)} keys` };
      case 'required':
        return { path: `${base}/${pointerToken(String(params.missingProperty))}`, message: 'is required' };
      case 'additionalProperties':
        return { path: `${base}/${pointerToken(String(params.additionalProperty))}`, message: 'is not an allowed property' };
      case 'const':
        return { path: base, message: `must be ${JSON.stringify(params.allowedValue)}` };
      case 'enum':
        return {
          path: base,
          message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
        };
      case 'pattern':
        return { path: base, message: TEXT_PATTERN_MESSAGES[String(params.pattern)] ?? error.message ?? 'is invalid' };
      default:
        return { path: base, message: error.message ?? 'is invalid' };
    }
  }
}

function valueAt(data: unknown, pointer: string): unknown {
  if (!pointer) return data;
  return pointer
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as SchemaObject)[key] : undefined), data);
}

function dedupe(problems: FieldProblem[]): FieldProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
