import type { Response } from 'express';
import type { AnswerShaper } from '#contract/versions/answer-shaper.js';
import { shapeJsonAnswer } from './shaped-json-answer.js';

/** A response whose res.json records what it was given and on which response it was called. */
function recordingResponse(statusCode: number): { res: Response; written: { body: unknown; on: unknown }[] } {
  const written: { body: unknown; on: unknown }[] = [];
  const res = {
    statusCode,
    json(this: unknown, body: unknown) {
      written.push({ body, on: this });
      return this;
    },
  } as unknown as Response;
  return { res, written };
}

/** A shaper that says what it was asked to shape. */
const shaper = {
  shapeAnswer: (version: string, operationId: string, status: number, body: unknown) => ({ version, operationId, status, body }),
} as unknown as AnswerShaper;

describe('shapeJsonAnswer', () => {
  it("hands Express's res.json the answer shaped for the version, with the response's status", () => {
    const { res, written } = recordingResponse(201);
    shapeJsonAnswer(res, shaper, '1.2.0', 'createAppointment');

    const returned = res.json({ id: 'a1' });

    expect(written).toEqual([{ body: { version: '1.2.0', operationId: 'createAppointment', status: 201, body: { id: 'a1' } }, on: res }]);
    expect(returned).toBe(res);
  });

  it('shapes with the status the response has when it is written, not when it was set up', () => {
    const { res, written } = recordingResponse(200);
    shapeJsonAnswer(res, shaper, '1.3.0', 'getAppointment');
    res.statusCode = 404;

    res.json({ code: 'NOT_FOUND' });

    expect(written[0].body).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });
});
