import { AnswerShaper } from '#contract/versions/answer-shaper.js';
import { API_VERSIONS } from '#contract/versions/api-versions.js';
import { E2eApi } from '../utils/e2e-api.js';

/*
 * Issue 38: the first request that needed an older version's operations (a key pinned to 1.3.0,
 * say) parsed that version's published document then, some 170 ms of YAML with the event loop
 * held, and every other business's requests waited behind it (the S9 bench's profile of the
 * hostile's start). The API now reads every published document before it takes a request.
 */
let api: E2eApi;
beforeAll(async () => {
  api = await E2eApi.start();
});
afterAll(() => api.close());

describe('the published documents an answer is shaped from', () => {
  it('are all read when the API starts, before any request', () => {
    expect(api.app.get(AnswerShaper).versionsLoaded()).toEqual([...API_VERSIONS]);
  });
});
