import { pointerToken, type FieldProblem } from './validation-errors.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why one string cannot be stored as sent, or undefined when it can. */
export function unstorableTextProblem(text: string): string | undefined {
  // PostgreSQL text cannot hold U+0000, and UTF-8 cannot hold half a surrogate pair (it would be
  // stored as U+FFFD): both would store something else than was sent, or fail in SQL.
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode (it contains an unpaired surrogate, \\uD800–\\uDFFF)';
  return undefined;
}

/**
 * Text the contract's schemas cannot rule out but no store can keep as sent: every string of a
 * JSON body, property names included, is checked; one problem per offending value. Iterative, so
 * any nesting is walked without recursion.
 */
export function unstorableText(body: unknown): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const stack: { value: unknown; path: string }[] = [{ value: body, path: '' }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      const message = unstorableTextProblem(value);
      if (message) problems.push({ path, message });
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => stack.push({ value: item, path: `${path}/${index}` }));
    } else if (value !== null && typeof value === 'object') {
      for (const [name, item] of Object.entries(value)) {
        const itemPath = `${path}/${pointerToken(name)}`;
        const message = unstorableTextProblem(name);
        if (message) problems.push({ path: itemPath, message: `has a property name that ${message}` });
        stack.push({ value: item, path: itemPath });
      }
    }
  }
  return problems.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
