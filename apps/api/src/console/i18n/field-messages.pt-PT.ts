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
  [/^at least one scope is needed; known: (.+)$/, (list) => `escolha pelo menos uma permissão (conhecidas: ${list})`],
  [/^unknown scope (\S+); known: (.+)$/, (scope, list) => `permissão desconhecida ${scope} (conhecidas: ${list})`],
  [/^must be 1 to (\d+) characters besides spaces at its ends$/, (n) => `tem de ter de 1 a ${n} caracteres, além dos espaços nas pontas`],
  [/^unknown API version (\S+); published: (.+)$/, (version, list) => `versão da API desconhecida ${version} (publicadas: ${list})`],
];

/** Why an endpoint's address is refused (delivery-target.ts, webhook-url.ts), the reasons a person types into. */
const ADDRESS_REASONS: readonly [RegExp, (...groups: string[]) => string][] = [
  [/^the address must be an https URL$/, () => 'o endereço tem de ser https'],
  [/^the address must be an http or https URL$/, () => 'o endereço tem de ser http ou https'],
  [/^the address must be an absolute URL$/, () => 'o endereço tem de ser completo (https://…)'],
  [/^the address must not carry a user name or password$/, () => 'o endereço não pode ter nome de utilizador nem palavra-passe'],
  [/^the address must not have a fragment$/, () => 'o endereço não pode ter fragmento (#…)'],
  [/^the address must not point to this machine$/, () => 'o endereço não pode apontar para esta máquina'],
  [/^the address must use port (.+)$/, (ports) => `o endereço tem de usar a porta ${ports.replace(' or ', ' ou ')}`],
];

function portugueseAddressReason(reason: string): string {
  for (const [pattern, words] of ADDRESS_REASONS) {
    const match = pattern.exec(reason);
    if (match) return words(...match.slice(1));
  }
  return reason;
}

export function portugueseFieldMessage(message: string): string {
  const refused = /^The address is refused: (.+)\.$/.exec(message);
  if (refused) return `O endereço é recusado: ${portugueseAddressReason(refused[1])}.`;
  for (const [pattern, words] of PATTERNS) {
    const match = pattern.exec(message);
    if (match) return words(...match.slice(1));
  }
  return message;
}
