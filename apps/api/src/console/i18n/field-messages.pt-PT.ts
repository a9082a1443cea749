/**
 * The API's messages about a field (the contract validator's and the services'), in Portuguese, by
 * their wording: the rules stay the API's, only their words change. A message not known here is
 * shown as the API says it.
 */
const PATTERNS: readonly [RegExp, (...groups: string[]) => string][] = [
  [/^is required$/, () => 'é obrigatório'],
  [/^must NOT have more than (\d+) characters$/, (n) => `não pode ter mais de ${n} caracteres`],
  [/^must NOT have fewer than (\d+) characters?$/, (n) => `tem de ter pelo menos ${n} ${n === '1' ? 'carácter' : 'caracteres'}`],
  [/^must NOT have fewer than (\d+) items?$/, (n) => `escolha pelo menos ${n}`],
  [/^must NOT have more than (\d+) items$/, (n) => `escolha no máximo ${n}`],
  [/^must match format "uri"$/, () => 'tem de ser um endereço completo (https://…)'],
  [
    /^must be one line of text, without control characters/,
    () => 'tem de ser uma só linha de texto, sem caracteres de controlo (U+0000–U+001F, U+007F)',
  ],
  [
    /^must not contain control, bidirectional or zero-width characters/,
    () => 'não pode ter caracteres de controlo, bidirecionais ou de largura zero',
  ],
  [/^must be one of (.+)$/, (list) => `tem de ser um de ${list}`],
  [/^must NOT have duplicate items/, () => 'não pode repetir valores'],
  [/^is not an allowed property$/, () => 'não é um campo permitido'],
];

export function portugueseFieldMessage(message: string): string {
  for (const [pattern, words] of PATTERNS) {
    const match = pattern.exec(message);
    if (match) return words(...match.slice(1));
  }
  return message;
}
