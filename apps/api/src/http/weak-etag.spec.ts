import express from 'express';
import { weakEtag } from './weak-etag.js';

describe('weakEtag', () => {
  const expressDefault = express().get('etag fn') as (body: Buffer | string, encoding?: BufferEncoding) => string;

  it.each([
    ['an empty body', ''],
    ['a JSON body', '{"id":"0190a1b2-0000-7000-8000-000000000001","status":"CONFIRMED"}'],
    ['text beyond ASCII', '{"name":"Coloração ✂️ 髪"}'],
    ['a long body', 'x'.repeat(70_000)],
  ])('gives what Express gives for %s, as a string and as bytes', (_, text) => {
    expect(weakEtag(text, 'utf8')).toBe(expressDefault(text, 'utf8'));
    expect(weakEtag(Buffer.from(text))).toBe(expressDefault(Buffer.from(text)));
  });
});
