// The checks of `npm run contract:compat` that Optic's breaking-change rules leave out (docs/design-record.md#d13):
// a 1.2.0 response may gain no field and no enum value (its schemas are closed, and partners'
// generated clients are strict), the notices of `webhooks:` (which Optic does not diff) may not
// change at all, and no string of a 1.2.0 request body may gain or change a pattern (Optic lets
// that narrowing through) but for the rules of ALLOWED_NARROWINGS. The rest of request bodies and
// parameters is left to Optic, which allows what D13 allows (relaxing a rule) and refuses what it
// refuses (a new required field, a removed parameter).

/**
 * The request rules 1.3.0 narrows on purpose, each with its reason: the only allowed exceptions
 * to "a 1.2.0 request accepted then is accepted now" (docs/design-record.md#hardening).
 */
export const ALLOWED_NARROWINGS = [
  {
    pattern: '^[^\\x00-\\x1F\\x7F]*$',
    reason:
      'Single-line text (names, descriptions) refuses control characters: a lone CR in a name reached the SUMMARY and ' +
      'CN lines of calendar invitations and the headers of e-mails, where it starts a new line of its own.',
  },
  {
    pattern: '^[^\\x00-\\x08\\x0B-\\x1F\\x7F]*$',
    reason: 'Multi-line text (a cancellation reason) keeps line feeds and tabs only, for the same reason.',
  },
];

/**
 * Request patterns a later version relaxes: each `after` accepts every string `before` accepted, so
 * a request accepted then is accepted now (docs/design-record.md#d23).
 */
export const ALLOWED_RELAXATIONS = [
  {
    before: '^\\+[0-9][0-9 ().-]{5,30}$',
    after: '^\\+?[0-9][0-9 ().-]{5,30}$',
    reason: "1.4.0: a client phone may be written in the business's national form (the leading + is optional).",
  },
];

/** Keywords that describe a schema without constraining it: changing them breaks nobody. */
const PROSE = new Set(['description', 'summary', 'title', 'example', 'examples', '$comment', 'externalDocs', 'deprecated']);

const resolveRef = (document, ref) =>
  ref
    .replace(/^#\//, '')
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((node, key) => node?.[key], document);

/** The schema with every local $ref replaced by what it names and the prose keywords dropped. */
export function structural(document, node, seen = new Set()) {
  if (Array.isArray(node)) return node.map((item) => structural(document, item, seen));
  if (!node || typeof node !== 'object') return node;
  if (typeof node.$ref === 'string') {
    if (seen.has(node.$ref)) return { $ref: node.$ref };
    return structural(document, resolveRef(document, node.$ref), new Set([...seen, node.$ref]));
  }
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (PROSE.has(key)) continue;
    out[key] = key === 'properties' ? structuralProperties(document, value, seen) : structural(document, value, seen);
  }
  return out;
}

function structuralProperties(document, properties, seen) {
  return Object.fromEntries(Object.entries(properties ?? {}).map(([name, schema]) => [name, structural(document, schema, seen)]));
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function operations(document) {
  const out = new Map();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS) if (item[method]) out.set(`${method.toUpperCase()} ${path}`, item[method]);
  }
  return out;
}

/**
 * Where two structural schemas differ, as JSON paths with what changed. An enum may grow, and a
 * pattern change, only where `mayGrow(path)` says so (under an operation marked x-scope-list-grows,
 * GET /me, which shows the key as it is: the scopes it holds, and its prefix, which for a test key
 * is rk_test_, docs/design-record.md#d19).
 */
export function differences(before, after, path = '', mayGrow = () => false) {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  if (Array.isArray(before) || Array.isArray(after) || !before || !after || typeof before !== 'object' || typeof after !== 'object') {
    return [`${path || '/'}: ${JSON.stringify(before)} became ${JSON.stringify(after)}`];
  }
  const found = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const here = `${path}/${key}`;
    if (!(key in after)) found.push(`${here}: removed`);
    else if (!(key in before)) found.push(`${here}: added`);
    else if (key === 'enum' && Array.isArray(before.enum) && Array.isArray(after.enum) && mayGrow(here)) {
      const lost = before.enum.filter((value) => !after.enum.includes(value));
      if (lost.length > 0) found.push(`${here}: lost ${JSON.stringify(lost)}`);
    } else if (key === 'pattern' && typeof before.pattern === 'string' && typeof after.pattern === 'string' && mayGrow(here)) {
      // The widened pattern must still accept what the old one described (its example prefix).
      if (!new RegExp(after.pattern).test('rk_live_AbC1'))
        found.push(`${here}: ${JSON.stringify(before.pattern)} became ${JSON.stringify(after.pattern)}`);
    } else found.push(...differences(before[key], after[key], here, mayGrow));
  }
  return found;
}

/**
 * Every way `current` answers an operation of `frozen` or sends one of its notices differently
 * than `frozen` describes, and every request rule it narrows. With `responses: false` (from 1.4.0
 * on, whose answers are shaped for each caller's pinned version, docs/design-record.md#d22) only
 * the requests are compared: an answer may grow, since a caller pinned to an older version never
 * sees the growth.
 */
export function compatibilityProblems(frozen, current, { responses = true } = {}) {
  const problems = [];
  const now = operations(current);
  for (const [name, before] of operations(frozen)) {
    const after = now.get(name);
    if (!after) {
      problems.push(`${name}: removed`);
      continue;
    }
    if (!responses) continue;
    const mayGrow = (path) =>
      after['x-scope-list-grows'] === true && (/\/properties\/scopes\//.test(path) || path.endsWith('/properties/prefix/pattern'));
    for (const [status, response] of Object.entries(before.responses ?? {})) {
      const then = structural(frozen, response);
      const nowResponse = after.responses?.[status];
      if (!nowResponse) {
        problems.push(`${name} ${status}: no longer documented`);
        continue;
      }
      const later = structural(current, nowResponse);
      for (const [type, media] of Object.entries(then.content ?? {})) {
        const laterMedia = later.content?.[type];
        if (!laterMedia) problems.push(`${name} ${status} ${type}: no longer answered`);
        else problems.push(...differences(media.schema, laterMedia.schema, '', mayGrow).map((d) => `${name} ${status} ${type}${d}`));
      }
    }
  }
  for (const [name, before] of operations(frozen)) {
    const after = now.get(name);
    const then = structural(frozen, before.requestBody)?.content?.['application/json']?.schema;
    const later = after && structural(current, after.requestBody)?.content?.['application/json']?.schema;
    if (then && later) problems.push(...narrowedPatterns(then, later).map((d) => `${name} request body${d}`));
  }
  const laterWebhooks = current.webhooks ?? {};
  for (const [type, item] of Object.entries(frozen.webhooks ?? {})) {
    const later = laterWebhooks[type];
    if (!later) {
      problems.push(`notice ${type}: removed`);
      continue;
    }
    if (!responses) continue;
    problems.push(
      ...differences(structural(frozen, item.post?.requestBody), structural(current, later.post?.requestBody)).map(
        (d) => `notice ${type}${d}`,
      ),
    );
  }
  return problems;
}

/**
 * Strings of a request that gained or changed a pattern, other than to an allowed one, walking the
 * two schemas side by side through properties, items and the branches of anyOf / oneOf / allOf.
 */
export function narrowedPatterns(before, after, path = '') {
  if (!before || !after || typeof before !== 'object' || typeof after !== 'object') return [];
  const found = [];
  if (
    after.pattern !== undefined &&
    after.pattern !== before.pattern &&
    !ALLOWED_NARROWINGS.some((rule) => rule.pattern === after.pattern) &&
    !ALLOWED_RELAXATIONS.some((rule) => rule.before === before.pattern && rule.after === after.pattern)
  ) {
    found.push(`${path}/pattern: ${before.pattern === undefined ? 'added' : 'changed'} (${after.pattern})`);
  }
  for (const [name, schema] of Object.entries(after.properties ?? {})) {
    found.push(...narrowedPatterns(before.properties?.[name], schema, `${path}/properties/${name}`));
  }
  if (after.items) found.push(...narrowedPatterns(before.items, after.items, `${path}/items`));
  for (const keyword of ['anyOf', 'oneOf', 'allOf']) {
    (after[keyword] ?? []).forEach((branch, i) => found.push(...narrowedPatterns(before[keyword]?.[i], branch, `${path}/${keyword}/${i}`)));
  }
  return found;
}
