import { multiLine, singleLine } from './control-characters.js';

describe('control characters in stored text', () => {
  it('makes one line of a name, whatever breaks it', () => {
    expect(singleLine('Ana\rSilva')).toBe('Ana Silva');
    expect(singleLine('Ana\r\nBEGIN:VEVENT')).toBe('Ana BEGIN:VEVENT');
    expect(singleLine('a\u0000b\u007Fc\td')).toBe('a b c d');
    expect(singleLine('Zoë 日本')).toBe('Zoë 日本');
  });

  it('keeps line feeds and tabs of multi-line text, turning CR and CRLF into LF', () => {
    expect(multiLine('one\r\ntwo\rthree\nfour\tfive\u0000\u001B')).toBe('one\ntwo\nthree\nfour\tfive');
  });
});
