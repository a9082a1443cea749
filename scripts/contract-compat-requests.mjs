// Every way a later document narrows what a request of an earlier one may send (docs/design-record.md#d13:
// "a 1.2.0 request accepted then is accepted now"), for `npm run contract:compat`. The two documents'
// operations are walked side by side: their path, query and header parameters and their request
// bodies, each schema through `$ref`, `allOf`, `anyOf` and `oneOf`. Nothing here decides what is
// allowed: contract-compat-rules.mjs holds the narrowings made on purpose.

/** Keywords that describe a schema without constraining what it accepts. */
const ANNOTATIONS = new Set([
  'description',
  'summary',
  'title',
  'example',
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
  'externalDocs',
  'discriminator',
  'xml',
]);

/** Keywords compared one by one below; any other constraint is a narrowing whenever it changes. */
const COMPARED = new Set([
  '$ref',
  'type',
  'nullable',
  'enum',
  'const',
  'format',
  'pattern',
  'maxLength',
  'maxItems',
  'maxProperties',
  'minLength',
  'minItems',
  'minProperties',
  'maximum',
  'minimum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'multipleOf',
  'uniqueItems',
  'required',
  'properties',
  'additionalProperties',
  'items',
  'allOf',
  'anyOf',
  'oneOf',
]);

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];

const escapePointer = (part) => String(part).replace(/~/g, '~0').replace(/\//g, '~1');

const atPointer = (document, pointer) =>
  pointer
    .replace(/^#\/?/, '')
    .split('/')
    .filter((part) => part !== '')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((node, key) => node?.[key], document);

/**
 * A schema with its `$ref` followed (a `$ref` beside other constraints is their conjunction, as in
 * OpenAPI 3.1) and its `allOf` members folded into it, with the JSON pointer of where it is written.
 * Constraints two members both set are both kept: the stricter bound, the union of `required`, the
 * intersection of `enum`; members that cannot be folded stay in `allOf`.
 */
function resolve(document, node, at, seen = new Set()) {
  if (node === true || node === undefined) return { schema: {}, at };
  if (node === false) return { schema: { not: {} }, at };
  if (!node || typeof node !== 'object') return { schema: {}, at };
  let schema = node;
  if (typeof node.$ref === 'string' && !seen.has(node.$ref)) {
    const { $ref, ...siblings } = node;
    const target = resolve(document, atPointer(document, $ref), $ref, new Set([...seen, $ref]));
    const constraints = Object.keys(siblings).filter((key) => !ANNOTATIONS.has(key) && !key.startsWith('x-'));
    if (constraints.length === 0) return target;
    schema = { ...siblings, allOf: [target.schema, ...(siblings.allOf ?? [])] };
  }
  if (!Array.isArray(schema.allOf)) return { schema, at };
  const { allOf, ...own } = schema;
  let folded = own;
  const left = [];
  for (const member of allOf) {
    const resolved = resolve(document, member, at, seen).schema;
    const merged = fold(folded, resolved);
    if (merged) folded = merged;
    else left.push(resolved);
  }
  return { schema: left.length > 0 ? { ...folded, allOf: left } : folded, at };
}

/** Two schemas' conjunction as one schema, or undefined when a constraint of theirs cannot be combined. */
function fold(a, b) {
  const out = { ...a };
  for (const [key, value] of Object.entries(b)) {
    if (!(key in out) || ANNOTATIONS.has(key)) out[key] = value;
    else if (JSON.stringify(out[key]) === JSON.stringify(value)) continue;
    else if (['maxLength', 'maxItems', 'maxProperties', 'maximum'].includes(key)) out[key] = Math.min(out[key], value);
    else if (['minLength', 'minItems', 'minProperties', 'minimum'].includes(key)) out[key] = Math.max(out[key], value);
    else if (key === 'required') out.required = [...new Set([...out.required, ...value])];
    else if (key === 'enum') out.enum = out.enum.filter((item) => value.some((other) => JSON.stringify(other) === JSON.stringify(item)));
    else if (key === 'properties') {
      out.properties = { ...out.properties };
      for (const [name, property] of Object.entries(value)) {
        out.properties[name] = name in out.properties ? { allOf: [out.properties[name], property] } : property;
      }
    } else return undefined;
  }
  return out;
}

/** The JSON types a schema accepts, or undefined for any. `integer` is within `number`. */
function types(schema) {
  if (schema.type === undefined) return undefined;
  const listed = Array.isArray(schema.type) ? [...schema.type] : [schema.type];
  if (schema.nullable === true) listed.push('null');
  return listed;
}

/** The value set of `enum` or `const`, or undefined when the schema lists none. */
const values = (schema) => ('const' in schema ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : undefined);

/** An upper or lower numeric bound as `{ value, exclusive }` (OpenAPI 3.1's numbers or 3.0's booleans). */
function bound(schema, inclusiveKey, exclusiveKey) {
  const inclusive = schema[inclusiveKey];
  const exclusive = schema[exclusiveKey];
  if (typeof exclusive === 'number') {
    if (typeof inclusive === 'number' && (inclusiveKey === 'maximum' ? inclusive < exclusive : inclusive > exclusive)) {
      return { value: inclusive, exclusive: false };
    }
    return { value: exclusive, exclusive: true };
  }
  if (typeof inclusive === 'number') return { value: inclusive, exclusive: exclusive === true };
  return undefined;
}

const show = (value) => JSON.stringify(value);
const describeBound = (b, inclusiveKey, exclusiveKey) => (b ? `${b.exclusive ? exclusiveKey : inclusiveKey} ${b.value}` : 'none');

/**
 * The narrowings of `after` against `before` (both raw schema nodes of their documents), each
 * `{ path, at, keyword, from, to, what }`: `path` is the JSON pointer inside the request part,
 * `at` the pointer in the later document where the narrowed schema is written, `keyword` what
 * narrowed and `to` its new value (what an allowed narrowing is matched on).
 */
export function schemaNarrowings(frozen, current, beforeNode, afterNode, at, path = '', seen = new Set()) {
  const { schema: before, at: beforeAt } = resolve(frozen, beforeNode, '');
  const { schema: after, at: afterAt } = resolve(current, afterNode, at);
  // A recursive schema compared with itself again, further down: its first comparison covers it.
  const pair = `${beforeAt}|${afterAt}`;
  if (beforeAt && afterAt && seen.has(pair)) return [];
  const nextSeen = new Set([...seen, pair]);
  const found = [];
  const narrowed = (keyword, from, to, what) => found.push({ path, at: afterAt, keyword, from, to, what });
  // A schema that accepted nothing (`false`, `not: {}`) cannot be narrowed.
  if (before.not && Object.keys(before.not).length === 0) return [];

  const typesBefore = types(before);
  const typesAfter = types(after);
  if (typesAfter) {
    const lost = (typesBefore ?? ['null', 'boolean', 'object', 'array', 'number', 'string']).filter(
      (type) => !typesAfter.includes(type) && !(type === 'integer' && typesAfter.includes('number')),
    );
    if (lost.length > 0)
      narrowed('type', typesBefore, typesAfter, `type narrowed from ${show(before.type ?? 'any')} to ${show(after.type)}`);
  }

  const valuesBefore = values(before);
  const valuesAfter = values(after);
  if (valuesAfter) {
    if (!valuesBefore) narrowed('enum', undefined, valuesAfter, `values limited to ${show(valuesAfter)}`);
    else {
      const lost = valuesBefore.filter((value) => !valuesAfter.some((other) => show(other) === show(value)));
      if (lost.length > 0)
        narrowed('enum', valuesBefore, valuesAfter, `lost the value${lost.length > 1 ? 's' : ''} ${show(lost).slice(1, -1)}`);
    }
  }

  for (const keyword of ['format', 'pattern']) {
    if (after[keyword] !== undefined && after[keyword] !== before[keyword]) {
      narrowed(
        keyword,
        before[keyword],
        after[keyword],
        before[keyword] === undefined
          ? `${keyword} added (${show(after[keyword])})`
          : `${keyword} ${show(before[keyword])} became ${show(after[keyword])}`,
      );
    }
  }

  for (const keyword of ['maxLength', 'maxItems', 'maxProperties']) {
    if (typeof after[keyword] === 'number' && !(typeof before[keyword] === 'number' && before[keyword] <= after[keyword])) {
      narrowed(
        keyword,
        before[keyword],
        after[keyword],
        `${keyword} ${before[keyword] === undefined ? 'added' : `${before[keyword]} became`} ${after[keyword]}`,
      );
    }
  }
  for (const keyword of ['minLength', 'minItems', 'minProperties']) {
    if (typeof after[keyword] === 'number' && after[keyword] > (before[keyword] ?? 0)) {
      narrowed(
        keyword,
        before[keyword],
        after[keyword],
        `${keyword} ${before[keyword] === undefined ? 'added' : `${before[keyword]} became`} ${after[keyword]}`,
      );
    }
  }
  for (const [inclusiveKey, exclusiveKey, tighter] of [
    ['maximum', 'exclusiveMaximum', (a, b) => a < b],
    ['minimum', 'exclusiveMinimum', (a, b) => a > b],
  ]) {
    const was = bound(before, inclusiveKey, exclusiveKey);
    const is = bound(after, inclusiveKey, exclusiveKey);
    if (is && (!was || tighter(is.value, was.value) || (is.value === was.value && is.exclusive && !was.exclusive))) {
      narrowed(
        inclusiveKey,
        was,
        is,
        `${inclusiveKey === 'maximum' ? 'upper' : 'lower'} bound ${describeBound(was, inclusiveKey, exclusiveKey)} became ${describeBound(is, inclusiveKey, exclusiveKey)}`,
      );
    }
  }
  if (
    typeof after.multipleOf === 'number' &&
    !(typeof before.multipleOf === 'number' && Number.isInteger(before.multipleOf / after.multipleOf))
  ) {
    narrowed('multipleOf', before.multipleOf, after.multipleOf, `multipleOf ${before.multipleOf ?? 'added'} became ${after.multipleOf}`);
  }
  if (after.uniqueItems === true && before.uniqueItems !== true)
    narrowed('uniqueItems', before.uniqueItems, true, 'items must now be unique');

  const requiredBefore = new Set(before.required ?? []);
  for (const name of after.required ?? []) {
    if (!requiredBefore.has(name)) narrowed('required', undefined, name, `property ${show(name)} newly required`);
  }

  // Properties: each one a request could send before must still be accepted, as it was.
  const closedBefore = before.additionalProperties === false;
  const additionalAfter = after.additionalProperties;
  if (additionalAfter !== undefined && additionalAfter !== true && !closedBefore) {
    if (additionalAfter === false)
      narrowed('additionalProperties', before.additionalProperties, false, 'other properties now refused (additionalProperties: false)');
    else
      found.push(
        ...schemaNarrowings(
          frozen,
          current,
          before.additionalProperties,
          additionalAfter,
          `${afterAt}/additionalProperties`,
          `${path}/additionalProperties`,
          nextSeen,
        ),
      );
  }
  const propertiesBefore = before.properties ?? {};
  const propertiesAfter = after.properties ?? {};
  for (const [name, property] of Object.entries(propertiesBefore)) {
    const here = `${path}/properties/${escapePointer(name)}`;
    if (name in propertiesAfter) {
      found.push(
        ...schemaNarrowings(
          frozen,
          current,
          property,
          propertiesAfter[name],
          `${afterAt}/properties/${escapePointer(name)}`,
          here,
          nextSeen,
        ),
      );
    } else if (additionalAfter === false) {
      found.push({ path: here, at: afterAt, keyword: 'properties', from: name, to: undefined, what: 'property removed (now refused)' });
    } else if (additionalAfter !== undefined && additionalAfter !== true) {
      found.push(...schemaNarrowings(frozen, current, property, additionalAfter, `${afterAt}/additionalProperties`, here, nextSeen));
    }
  }
  if (!closedBefore) {
    for (const [name, property] of Object.entries(propertiesAfter)) {
      if (name in propertiesBefore) continue;
      const here = `${path}/properties/${escapePointer(name)}`;
      found.push(
        ...schemaNarrowings(
          frozen,
          current,
          before.additionalProperties,
          property,
          `${afterAt}/properties/${escapePointer(name)}`,
          here,
          nextSeen,
        ),
      );
    }
  }

  if (after.items !== undefined) {
    found.push(...schemaNarrowings(frozen, current, before.items, after.items, `${afterAt}/items`, `${path}/items`, nextSeen));
  }

  // The branches of anyOf / oneOf: each branch a request could match before must still be
  // accepted by a branch of the later document; a branch list where there was none narrows.
  for (const keyword of ['anyOf', 'oneOf']) {
    const branchesAfter = after[keyword];
    if (!Array.isArray(branchesAfter)) continue;
    const branchesBefore = before.anyOf ?? before.oneOf;
    if (!Array.isArray(branchesBefore)) {
      narrowed(keyword, undefined, branchesAfter, `${keyword} added`);
      continue;
    }
    branchesBefore.forEach((branch, i) => {
      const attempts = branchesAfter.map((candidate, j) =>
        schemaNarrowings(frozen, current, branch, candidate, `${afterAt}/${keyword}/${j}`, `${path}/${keyword}/${j}`, nextSeen),
      );
      if (attempts.some((attempt) => attempt.length === 0)) return;
      if (i < attempts.length) found.push(...attempts[i]);
      else narrowed(keyword, branch, undefined, `branch ${i} accepted by no branch any more`);
    });
  }

  // allOf members that could not be folded, and every other constraint: a change narrows.
  const restBefore = before.allOf ?? [];
  for (const [i, member] of (after.allOf ?? []).entries()) {
    if (!restBefore.some((other) => show(other) === show(member)))
      narrowed('allOf', undefined, member, `allOf member ${i} added or changed`);
  }
  for (const keyword of Object.keys(after)) {
    if (COMPARED.has(keyword) || ANNOTATIONS.has(keyword) || keyword.startsWith('x-')) continue;
    if (show(after[keyword]) !== show(before[keyword])) {
      narrowed(
        keyword,
        before[keyword],
        after[keyword],
        `${keyword} ${before[keyword] === undefined ? 'added' : 'changed'} (${show(after[keyword])})`,
      );
    }
  }
  return found;
}

/** A parameter's key: where it goes and its name (header names are case-insensitive). */
const parameterKey = (parameter) => `${parameter.in} ${parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name}`;

/** An operation's parameters, its path item's included (the operation's own win), by key, with where each is written. */
function parameters(document, path, method) {
  const item = document.paths[path];
  const out = new Map();
  const base = `#/paths/${escapePointer(path)}`;
  const add = (list, at) =>
    (list ?? []).forEach((node, i) => {
      const ref = typeof node.$ref === 'string' ? node.$ref : undefined;
      const parameter = ref ? atPointer(document, ref) : node;
      if (parameter?.name) out.set(parameterKey(parameter), { parameter, at: ref ?? `${at}/parameters/${i}` });
    });
  add(item.parameters, base);
  add(item[method].parameters, `${base}/${method}`);
  return out;
}

/**
 * Every narrowing of a request of `frozen` by `current`, each `{ operation, part, path, at,
 * keyword, from, to, what }`, `part` naming the parameter or the body's media type.
 */
export function requestNarrowings(frozen, current) {
  const found = [];
  for (const [path, item] of Object.entries(frozen.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const after = current.paths?.[path]?.[method];
      if (!item[method] || !after) continue;
      const operation = `${method.toUpperCase()} ${path}`;
      const add = (part, narrowings) => found.push(...narrowings.map((narrowing) => ({ operation, part, ...narrowing })));

      const parametersBefore = parameters(frozen, path, method);
      const parametersAfter = parameters(current, path, method);
      for (const [key, { parameter }] of parametersBefore) {
        const part = `${key.split(' ')[0]} parameter ${parameter.name}`;
        const later = parametersAfter.get(key);
        if (!later) {
          add(part, [{ path: '', at: '', keyword: 'parameter', from: parameter.name, to: undefined, what: 'parameter removed' }]);
          continue;
        }
        if (later.parameter.required === true && parameter.required !== true) {
          add(part, [{ path: '', at: later.at, keyword: 'required', from: false, to: true, what: 'parameter newly required' }]);
        }
        add(part, schemaNarrowings(frozen, current, parameter.schema, later.parameter.schema, `${later.at}/schema`));
      }
      for (const [key, { parameter, at }] of parametersAfter) {
        if (!parametersBefore.has(key) && parameter.required === true) {
          add(`${key.split(' ')[0]} parameter ${parameter.name}`, [
            { path: '', at, keyword: 'required', from: undefined, to: true, what: 'new required parameter' },
          ]);
        }
      }

      const bodyAt = `#/paths/${escapePointer(path)}/${method}/requestBody`;
      const resolveBody = (document, node, at) =>
        typeof node?.$ref === 'string' ? { body: atPointer(document, node.$ref), at: node.$ref } : { body: node, at };
      const { body: bodyBefore } = resolveBody(frozen, item[method].requestBody, '');
      const { body: bodyAfter, at: laterBodyAt } = resolveBody(current, after.requestBody, bodyAt);
      if (bodyAfter?.required === true && bodyBefore?.required !== true) {
        add('request body', [
          { path: '', at: laterBodyAt, keyword: 'required', from: bodyBefore?.required, to: true, what: 'request body newly required' },
        ]);
      }
      for (const [type, media] of Object.entries(bodyBefore?.content ?? {})) {
        const part = `request body ${type}`;
        const later = bodyAfter?.content?.[type];
        if (!later)
          add(part, [{ path: '', at: laterBodyAt, keyword: 'content', from: type, to: undefined, what: 'media type no longer accepted' }]);
        else
          add(part, schemaNarrowings(frozen, current, media.schema, later.schema, `${laterBodyAt}/content/${escapePointer(type)}/schema`));
      }
    }
  }
  return found;
}
