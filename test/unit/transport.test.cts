import { Readable } from 'node:stream';

import type { IHttpRequestOptions, NodeApiError } from 'n8n-workflow';
import nock from 'nock';

import { requestOptionsProperty } from '../../nodes/shared/descriptions';
import { sendAuthenticated } from '../../nodes/shared/transport/connection';

import { MAX_RATE_LIMITED_TRIES, MIN_RATE_LIMIT_WAIT_MS } from '../../nodes/shared/transport';
import { RequestPacer } from '../../nodes/shared/transport/pacing';
import {
	quotaUsedUp,
	refusalLimit,
	RetryAfterUnit,
	retryAfter,
} from '../../nodes/shared/transport/rateLimit';
import { clockNow } from '../helpers/clock.cjs';
import { downloadEvents } from '../helpers/probeNode.cjs';
import { assertNoSecrets } from '../helpers/harness.cjs';
import { localServer, resetConnection } from '../helpers/localServer.cjs';
import {
	API_KEY,
	API_PATH,
	APP_URL,
	api,
	apiKeyCredentials,
	errorText,
	NODE,
	OAUTH_TOKEN,
	probe,
	runAction,
} from '../helpers/fixtures.cjs';

const PING = `${API_PATH}/agents/ping`;

const credentialsFor = (instanceUrl: string) => ({
	socialContentApi: { instanceUrl, apiKey: API_KEY },
});

describe('transport: success', () => {
	test('parses JSON and returns it as the item', async () => {
		const scope = api()
			.get(PING)
			.reply(200, { ok: true, organization: 'Acme', tools: ['hooks'] });
		const result = await probe({ path: '/agents/ping' });
		expect(result.error).toBeUndefined();
		expect(result.output(NODE)).toEqual([
			{ json: { ok: true, organization: 'Acme', tools: ['hooks'] }, pairedItem: { item: 0 } },
		]);
		scope.done();
	});

	test('sends a JSON body with its content type on POST', async () => {
		const scope = api()
			.post(`${API_PATH}/hooks/score`, { text: 'Stop scrolling' })
			.matchHeader('content-type', /application\/json/)
			.reply(200, { score: 80 });
		const result = await probe({
			method: 'POST',
			path: '/hooks/score',
			body: { text: 'Stop scrolling' },
		});
		expect(result.output(NODE)[0].json).toEqual({ score: 80 });
		scope.done();
	});

	test('an empty 2xx body becomes an empty object, not an error', async () => {
		const scope = api().delete(`${API_PATH}/posts/p1`).reply(204);
		const result = await probe({ method: 'DELETE', path: '/posts/p1' });
		expect(result.error).toBeUndefined();
		expect(result.output(NODE)[0].json).toEqual({});
		scope.done();
	});
});

describe('transport: error statuses', () => {
	test('400 with msg: the server message, verbatim', async () => {
		api().post(`${API_PATH}/hooks/score`).reply(400, { msg: 'text is required' });
		const result = await probe({ method: 'POST', path: '/hooks/score', body: {} });
		expect(result.error?.message).toBe('The service rejected the request: text is required');
		expect((result.error as NodeApiError).httpCode).toBe('400');
		// No field named: says so, instead of pointing at a name that is not there (#50).
		expect((result.error as NodeApiError).description).toBe(
			'The service named no field: check the parameters this operation sends against its words, and run again.',
		);
	});

	test('400 with one field error: the description names that field (#50)', async () => {
		api()
			.post(`${API_PATH}/hooks/score`)
			.reply(400, { errors: [{ field: 'platform', message: 'unknown platform' }] });
		const result = await probe({ method: 'POST', path: '/hooks/score', body: {} });
		expect(result.error?.message).toBe(
			'The service rejected the request: platform: unknown platform',
		);
		expect((result.error as NodeApiError).description).toBe(
			'Fix "platform", the field the service named, and run again.',
		);
	});

	test.each([
		['class-validator (NestJS)', { message: ['input.slides must be an array'] }, 'input.slides'],
		['Joi', { message: '"slides" must be an array' }, 'slides'],
		['class-validator, each entry', { message: ['each value in tags must be a string'] }, 'tags'],
		['a field not allowed', { message: ['property slidez should not exist'] }, 'slidez'],
	])('400 naming its field in words (%s): the description names it', async (_form, body, field) => {
		api().post(`${API_PATH}/hooks/score`).reply(400, body);
		const result = await probe({ method: 'POST', path: '/hooks/score', body: {} });
		expect((result.error as NodeApiError).description).toBe(
			`Fix "${field}", the field the service named, and run again.`,
		);
	});

	test.each([
		[
			'an errors array of records',
			{
				errors: [
					{ field: 'text', message: 'must not be empty' },
					{ field: 'count', message: 'must be at most 10' },
				],
			},
		],
		['a field map', { errors: { text: ['must not be empty'], count: 'must be at most 10' } }],
		[
			'a message array (class-validator style)',
			{ message: ['text: must not be empty', 'count: must be at most 10'] },
		],
	])('400 with %s: every field error listed', async (_shape, body) => {
		api().post(`${API_PATH}/hooks/generate`).reply(400, body);
		const result = await probe({ method: 'POST', path: '/hooks/generate', body: {} });
		const error = result.error as NodeApiError;
		expect(error.message).toContain('text: must not be empty');
		expect(error.message).toContain('count: must be at most 10');
		expect(error.description).toBe(
			'Fix these fields and run again:\n- text: must not be empty\n- count: must be at most 10',
		);
	});

	test('401: says the key or token was rejected and what to do, after exactly one request', async () => {
		let calls = 0;
		api()
			.get(PING)
			.times(5)
			.reply(() => {
				calls++;
				return [401, ''];
			});
		const result = await probe({ path: '/agents/ping' });
		const error = result.error as NodeApiError;
		expect(error.message).toBe('The service rejected the API key: it is wrong, or was revoked');
		expect(error.httpCode).toBe('401');
		expect(calls).toBe(1);
	});

	test('402: not enough credits, nothing reserved; a create is sent once', async () => {
		let calls = 0;
		api()
			.post(`${API_PATH}/studio/generations`)
			.times(3)
			.reply(() => {
				calls++;
				return [402, {}];
			});
		const result = await probe({
			method: 'POST',
			path: '/studio/generations',
			body: { formatId: 'slideshow', input: {} },
		});
		expect(result.error?.message).toBe(
			'Not enough credits for this request. Nothing was reserved or charged',
		);
		expect(calls).toBe(1);
	});

	test('503: the feature is not configured on this instance', async () => {
		api().get(`${API_PATH}/studio/formats`).reply(503, { msg: 'studio disabled' });
		const result = await probe({ path: '/studio/formats' });
		const error = result.error as NodeApiError;
		expect(error.message).toBe(
			'This feature is not configured on this instance (503): studio disabled',
		);
		expect(error.description).toContain('app.example.com');
	});

	test('404: names the request and suggests checking the id', async () => {
		api().get(`${API_PATH}/studio/generations/nope`).reply(404, { msg: 'not found' });
		const result = await probe({ path: '/studio/generations/nope' });
		expect(result.error?.message).toBe('Not found: GET /studio/generations/nope (404): not found');
	});

	test('a read is retried after 500/502/504, a bounded number of times', async () => {
		const scope = api()
			.get(PING)
			.reply(502, { msg: 'bad gateway' })
			.get(PING)
			.reply(500, {})
			.get(PING)
			.reply(200, { ok: true });
		const result = await probe({ path: '/agents/ping' });
		expect(result.output(NODE)[0].json).toEqual({ ok: true });
		scope.done();
	});

	test('a read that keeps failing with 500 gives up after three tries', async () => {
		let calls = 0;
		api()
			.get(PING)
			.times(10)
			.reply(() => {
				calls++;
				return [500, { msg: 'boom' }];
			});
		const result = await probe({ path: '/agents/ping' });
		expect(result.error?.message).toBe('The service answered 500 to GET /agents/ping: boom');
		expect(calls).toBe(3);
	});

	test('a create is never retried after a 500', async () => {
		let calls = 0;
		api()
			.post(`${API_PATH}/posts`)
			.times(3)
			.reply(() => {
				calls++;
				return [500, {}];
			});
		const result = await probe({ method: 'POST', path: '/posts', body: { type: 'draft' } });
		expect(result.error?.message).toBe('The service answered 500 to POST /posts');
		expect(calls).toBe(1);
	});
});

describe('transport: 429', () => {
	const limited = { code: 'RATE_LIMITED', bucket: 'hooks', limit: 20, retryAfter: 0.02 };

	test('waits retryAfter and retries, for a create too (the server did nothing)', async () => {
		const scope = api()
			.post(`${API_PATH}/posts`)
			.reply(429, limited)
			.post(`${API_PATH}/posts`)
			.reply(429, limited)
			.post(`${API_PATH}/posts`)
			.reply(200, [{ postId: 'p1' }]);
		const result = await probe({ method: 'POST', path: '/posts', body: { type: 'now' } });
		expect(result.error).toBeUndefined();
		expect(result.output(NODE)[0].json).toEqual({ postId: 'p1' });
		scope.done();
	});

	test('uses the Retry-After header when the body has no retryAfter', async () => {
		const scope = api()
			.get(PING)
			.reply(429, { code: 'RATE_LIMITED' }, { 'Retry-After': '0' })
			.get(PING)
			.reply(200, { ok: true });
		const result = await probe({ path: '/agents/ping' });
		expect(result.output(NODE)[0].json).toEqual({ ok: true });
		scope.done();
	});

	test('past the user cap: an error naming the bucket, the limit and retryAfter (the header gives the unit: 1 request)', async () => {
		let calls = 0;
		api()
			.get(PING)
			.times(5)
			.reply(() => {
				calls++;
				return [
					429,
					{ code: 'RATE_LIMITED', bucket: 'public-api', limit: 60, retryAfter: 30 },
					{ 'Retry-After': '30' },
				];
			});
		const result = await probe(
			{ path: '/agents/ping' },
			{ requestOptions: { maxRateLimitWait: 5 } },
		);
		const error = result.error as NodeApiError;
		expect(error.message).toBe('Rate limited on bucket "public-api" (limit 60): try again in 30 s');
		expect(error.description).toContain('asks to wait 30 s');
		expect(error.description).toContain('Max Rate Limit Wait');
		expect(error.httpCode).toBe('429');
		expect(calls).toBe(1);
	});

	test.each([
		[{ ...limited, limit: 20 }, 20],
		[{ ...limited, limit: '20' }, 20],
		[{ ...limited, limit: '100/hour' }, undefined],
		[{ ...limited, limit: 0 }, undefined],
		[{ code: 'RATE_LIMITED', retryAfter: 0.02 }, undefined],
	])("the 429's limit reaches the pacer when it is a count: %j → %s", async (body, expected) => {
		const refused = jest.spyOn(RequestPacer.prototype, 'refused');
		try {
			const scope = api().get(PING).reply(429, body).get(PING).reply(200, { ok: true });
			const result = await probe({ path: '/agents/ping' });
			expect(result.error).toBeUndefined();
			expect(refused).toHaveBeenCalledTimes(1);
			expect(refused.mock.calls[0][4]).toBe(expected);
			scope.done();
		} finally {
			refused.mockRestore();
		}
	});

	test('past the user cap with no header: read short (30 ms) until the service keeps refusing, then as seconds: 3 requests, then the error names 30 s', async () => {
		const sentAt: number[] = [];
		api()
			.get(PING)
			.times(5)
			.reply(() => {
				sentAt.push(clockNow());
				return [429, { code: 'RATE_LIMITED', bucket: 'public-api', limit: 60, retryAfter: 30 }];
			});
		const result = await probe(
			{ path: '/agents/ping' },
			{ requestOptions: { maxRateLimitWait: 5 } },
		);
		const error = result.error as NodeApiError;
		expect(error.description).toContain('asks to wait 30 s');
		expect(sentAt).toHaveLength(3);
		// Each short wait was waited in full (30 ms, to the millisecond; timers may fire a little late, never early).
		expect(sentAt[1] - sentAt[0]).toBeGreaterThanOrEqual(30);
		expect(sentAt[2] - sentAt[1]).toBeGreaterThanOrEqual(30);
	});
});

/** GET /agents/ping refused with a 429 every time, its body and headers as given; counts the refusals. */
function refusedEveryTime(body: object, headers: Record<string, string> = {}): { calls: number } {
	const refused = { calls: 0 };
	api()
		.get(PING)
		.reply(() => {
			refused.calls++;
			return [429, { code: 'RATE_LIMITED', ...body }, headers];
		})
		.persist();
	return refused;
}

describe('transport: 429 waits that would never add up', () => {
	test.each([
		['retryAfter 0', { retryAfter: 0 }, {}],
		['a negative retryAfter', { retryAfter: -5 }, {}],
		['a Retry-After date in the past', {}, { 'Retry-After': 'Wed, 21 Oct 2015 07:28:00 GMT' }],
	])(
		'%s: each wait counts at least the floor, so Max Rate Limit Wait ends it',
		async (_name, body, headers) => {
			const refused = refusedEveryTime({ bucket: 'b', limit: 1, ...body }, headers);
			const result = await probe(
				{ path: '/agents/ping' },
				{ requestOptions: { maxRateLimitWait: 1 } },
			);
			expect((result.error as NodeApiError).httpCode).toBe('429');
			expect(refused.calls).toBeLessThanOrEqual(1000 / MIN_RATE_LIMIT_WAIT_MS + 1);
		},
	);

	test.each([
		['a Retry-After date in 2099', {}, { 'Retry-After': 'Thu, 01 Jan 2099 00:00:00 GMT' }],
		[
			'a retryAfter of 10,000,019 s with its header',
			{ retryAfter: 10_000_019 },
			{ 'Retry-After': '10000019' },
		],
	])(
		'%s: said to be an unreasonable wait, not the cap presented as the answer; not waited for (#68)',
		async (_name, body, headers) => {
			const refused = refusedEveryTime(body, headers);
			const result = await probe(
				{ path: '/agents/ping' },
				{ requestOptions: { maxRateLimitWait: 7201 } },
			);
			const error = result.error as NodeApiError;
			expect(error.httpCode).toBe('429');
			expect(error.message).toMatch(
				/^Rate limited: the service asked for an unreasonable wait \([\d,]+ days\); try again later$/,
			);
			// The cap (an hour) is named as the node's, never as what the service asked.
			expect(error.description).toMatch(/asks to wait [\d,]+ days.*the node waits at most 60 min/);
			expect(`${error.message} ${error.description}`).not.toMatch(
				/(try again in|asks to wait) 60 min/,
			);
			expect(refused.calls).toBe(1);
		},
	);

	test("a daily quota's 20 h past the 1-hour cap: the wait asked is said as asked, and not waited for (#68)", async () => {
		const refused = refusedEveryTime({}, { 'Retry-After': '72001' });
		const result = await probe(
			{ path: '/agents/ping' },
			{ requestOptions: { maxRateLimitWait: 7201 } },
		);
		const error = result.error as NodeApiError;
		expect(error.message).toBe('Rate limited: try again in 20 h');
		expect(error.description).toMatch(/^The service asks to wait 20 h:/);
		expect(refused.calls).toBe(1);
	});

	test(`however long the cap, one request takes at most ${MAX_RATE_LIMITED_TRIES} 429 answers`, async () => {
		const refused = refusedEveryTime({ retryAfter: 0 });
		const result = await probe(
			{ path: '/agents/ping' },
			{ requestOptions: { maxRateLimitWait: 3600 } },
		);
		expect((result.error as NodeApiError).httpCode).toBe('429');
		expect(refused.calls).toBe(MAX_RATE_LIMITED_TRIES);
		expect((result.error as NodeApiError).description).toContain(
			`answered 429 ${MAX_RATE_LIMITED_TRIES} times in a row`,
		);
	}, 30_000);
});

describe('transport: wrong instance URL', () => {
	const loginPage =
		'<!DOCTYPE html><html><head><title>Sign in</title></head><body>Login</body></html>';

	test('an HTML page with 200 is an error, never a silent success', async () => {
		api().get(PING).reply(200, loginPage, { 'Content-Type': 'text/html' });
		const result = await probe({ path: '/agents/ping' });
		expect(result.error?.message).toBe('The Instance URL serves a web page, not the API');
		expect((result.error as NodeApiError).description).toContain('https://app.example.com');
	});

	test('HTML without an HTML content type is still caught', async () => {
		api().get(PING).reply(200, loginPage, { 'Content-Type': 'application/json' });
		const result = await probe({ path: '/agents/ping' });
		expect(result.error?.message).toBe('The Instance URL serves a web page, not the API');
	});

	test('HTML with 404 gives the same advice', async () => {
		api().get(PING).reply(404, loginPage, { 'Content-Type': 'text/html' });
		const result = await probe({ path: '/agents/ping' });
		expect(result.error?.message).toBe('The Instance URL serves a web page, not the API');
	});

	test('an HTML 5xx page from a proxy says the server is failing', async () => {
		api()
			.post(`${API_PATH}/posts`)
			.reply(502, '<html><body>Bad Gateway</body></html>', { 'Content-Type': 'text/html' });
		const result = await probe({ method: 'POST', path: '/posts', body: { type: 'now' } });
		expect(result.error?.message).toBe(
			"The server answered 502 with a web page instead of the API's JSON",
		);
	});

	test('valid JSON labelled text/html is read as JSON, not refused as a web page (#68)', async () => {
		api().get(PING).reply(200, '{"ok":true,"organization":"org_1"}', {
			'Content-Type': 'text/html; charset=utf-8',
		});
		const result = await probe({ path: '/agents/ping' });
		expect(result.error).toBeUndefined();
		expect(result.output(NODE)[0].json).toMatchObject({ ok: true, organization: 'org_1' });
	});

	test('a 200 body that is not JSON is an error', async () => {
		api().get(PING).reply(200, 'OK', { 'Content-Type': 'text/plain' });
		const result = await probe({ path: '/agents/ping' });
		expect(result.error?.message).toBe('The service answered with something that is not JSON');
	});
});

describe('transport: network errors', () => {
	test('a read is tried three times, then fails naming the host', async () => {
		const server = await localServer(resetConnection);
		nock.enableNetConnect('127.0.0.1');
		try {
			const result = await probe(
				{ path: '/agents/ping' },
				{ credentials: credentialsFor(server.url) },
			);
			const host = new URL(server.url).host;
			expect(result.error?.message).toBe(`Could not reach ${host}: the connection was reset`);
			expect(server.requests).toEqual(Array(3).fill(`GET ${API_PATH}/agents/ping`));
		} finally {
			await server.close();
		}
	});

	test('Timeout bounds the whole answer: one still arriving, never silent for the Timeout, is cut at it, as the option says (#68)', async () => {
		// Headers at once, then a byte of JSON every 200 ms for about 3 s: never a second of silence.
		const body = `{"ok":true,"pad":"${'x'.repeat(13)}"}`;
		const server = await localServer((_req, res) => {
			res.writeHead(200, { 'Content-Type': 'application/json' });
			let sent = 0;
			const drip = setInterval(() => {
				if (res.destroyed) return clearInterval(drip);
				res.write(body[sent++]);
				if (sent === body.length) {
					clearInterval(drip);
					res.end();
				}
			}, 200);
		});
		nock.enableNetConnect('127.0.0.1');
		try {
			const result = await probe(
				{ method: 'POST', path: '/hooks/score', body: { text: 'x' } },
				{ credentials: credentialsFor(server.url), requestOptions: { timeout: 1 } },
			);
			expect(result.error?.message).toMatch(/did not answer within 1 s$/);
			const timeout = requestOptionsProperty.options?.find(
				(option) => (option as { name: string }).name === 'timeout',
			) as { description: string };
			expect(timeout.description).toMatch(/whole answer/);
		} finally {
			await server.close();
		}
	});

	test('a create is sent once and the message says it was not retried', async () => {
		const server = await localServer(resetConnection);
		nock.enableNetConnect('127.0.0.1');
		try {
			const result = await probe(
				{ method: 'POST', path: '/studio/generations', body: { formatId: 'x', input: {} } },
				{ credentials: credentialsFor(server.url) },
			);
			expect(result.error?.message).toMatch(
				/^Could not reach 127\.0\.0\.1:\d+: the connection was reset$/,
			);
			expect((result.error as NodeApiError).description).toContain(
				'It was not sent again, since it may have reached the service',
			);
			expect((result.error as NodeApiError).description).not.toMatch(/\.\./);
			expect(server.requests).toEqual([`POST ${API_PATH}/studio/generations`]);
		} finally {
			await server.close();
		}
	});

	test('a host that refuses connections', async () => {
		nock.enableNetConnect('127.0.0.1');
		const result = await probe(
			{ path: '/agents/ping' },
			{ credentials: { socialContentApi: { instanceUrl: 'http://127.0.0.1:9', apiKey: API_KEY } } },
		);
		expect(result.error?.message).toBe('Could not reach 127.0.0.1:9: the connection was refused');
	});

	test('an Instance URL that is not a web address', async () => {
		const result = await probe(
			{ path: '/agents/ping' },
			{ credentials: { socialContentApi: { instanceUrl: 'app.example.com', apiKey: API_KEY } } },
		);
		expect(result.error?.message).toBe('The Instance URL in the credential is not a web address');
		expect(result.error?.name).toBe('NodeOperationError');
	});
});

describe('transport: secrets', () => {
	const cases: Array<[string, () => nock.Scope]> = [
		[
			'400 echoing the key',
			() =>
				api()
					.get(PING)
					.reply(400, { msg: `bad key ${API_KEY}` }),
		],
		[
			'401 echoing the key',
			() =>
				api()
					.get(PING)
					.reply(401, { msg: `invalid: ${API_KEY}` }),
		],
		['500 echoing the key', () => api().get(PING).times(3).reply(500, `error for ${API_KEY}`)],
		['HTML page', () => api().get(PING).reply(200, `<html>${API_KEY}</html>`)],
		// Every try refused (999 is first read as ms): no read is left unmatched to fail later.
		[
			'429 past the cap',
			() => api().get(PING).times(3).reply(429, { bucket: API_KEY, retryAfter: 999 }),
		],
	];

	test.each(cases)('%s: the API key appears in no error text', async (_name, setup) => {
		setup();
		const result = await probe(
			{ path: '/agents/ping' },
			{ requestOptions: { maxRateLimitWait: 1 } },
		);
		expect(result.error).toBeDefined();
		expect(errorText(result)).not.toContain(API_KEY);
	});

	test('a network error: the API key appears in no error text', async () => {
		const server = await localServer(resetConnection);
		nock.enableNetConnect('127.0.0.1');
		try {
			const result = await probe(
				{ path: '/agents/ping' },
				{ credentials: credentialsFor(server.url) },
			);
			expect(result.error?.message).toContain('Could not reach');
			expect(errorText(result)).not.toContain(API_KEY);
		} finally {
			await server.close();
		}
	});

	test('the OAuth2 token appears in no error text', async () => {
		api({ token: OAUTH_TOKEN })
			.get(PING)
			.reply(401, { msg: `revoked ${OAUTH_TOKEN}` });
		const result = await probe({ path: '/agents/ping' }, { authentication: 'oAuth2' });
		expect((result.error as NodeApiError).httpCode).toBe('401');
		expect(errorText(result)).not.toContain(OAUTH_TOKEN);
	});
});

test('the harness catches a secret in run data (so every run above was checked)', () => {
	expect(() => assertNoSecrets({ json: { echoed: `key ${API_KEY}` } }, apiKeyCredentials)).toThrow(
		/appears in the run data/,
	);
	expect(() => assertNoSecrets({ json: { ok: true } }, apiKeyCredentials)).not.toThrow();
});

describe('retryAfter', () => {
	test.each([
		// No header: a fraction is seconds; a whole number is read short (ms) until the run learns otherwise.
		[{ retryAfter: 2 }, {}, 2],
		[{ retryAfter: 0.5 }, {}, 500],
		[{ retryAfter: '3' }, {}, 3],
		[{ retryAfter: 200 }, {}, 200],
		[{ retryAfter: 1500 }, {}, 1500],
		[{ retryAfter: 0 }, {}, 0],
		[{}, { 'retry-after': '4' }, 4000],
		[{}, { 'retry-after': new Date(Date.UTC(2030, 0, 1, 0, 0, 10)).toUTCString() }, 10000],
		[{}, {}, 1000],
		['not json', {}, 1000],
		[{ retryAfter: -5 }, {}, 1000],
		// The header, where there is one, says which unit the body's number is in.
		[{ retryAfter: 200 }, { 'retry-after': '1' }, 200],
		[{ retryAfter: 900 }, { 'retry-after': '1' }, 900],
		[{ retryAfter: 2 }, { 'retry-after': '2' }, 2000],
		[{ retryAfter: 3600 }, { 'retry-after': '3600' }, 3_600_000],
		[{ retryAfter: 1500 }, { 'retry-after': '2' }, 1500],
		[
			{ retryAfter: 30 },
			{ 'retry-after': new Date(Date.UTC(2030, 0, 1, 0, 0, 30)).toUTCString() },
			30000,
		],
	])('body %j, headers %j → %d ms', (body, headers, expected) => {
		expect(retryAfter(body, headers, Date.UTC(2030, 0, 1, 0, 0, 0)).ms).toBe(expected);
	});

	test('a whole number with no header, once the run counts seconds: seconds', () => {
		expect(retryAfter({ retryAfter: 2 }, {}, 0, true)).toEqual({ ms: 2000, wholeSeconds: true });
		expect(retryAfter({ retryAfter: 2 }, {}, 0, false)).toEqual({
			ms: 2,
			wholeSeconds: false,
			asSecondsMs: 2000,
		});
		expect(retryAfter({ retryAfter: 200 }, { 'retry-after': '1' }, 0, true).ms).toBe(200); // a header still decides
	});

	test('the unit switches to seconds after 3 refusals in a row, sent after the short waits, that count down as seconds; never on one that does not', () => {
		const short = (value: number) => retryAfter({ retryAfter: value }, {});
		const unit = new RetryAfterUnit();
		expect(unit.read(short(3600), true, 0).ms).toBe(3600);
		expect(unit.read(short(3596), true, 3600).ms).toBe(3596);
		expect(unit.inSeconds).toBe(false);
		expect(unit.read(short(3593), true, 7200)).toEqual({ ms: 3_593_000, wholeSeconds: true });
		expect(unit.inSeconds).toBe(true);
		// A service counting milliseconds: each new wait is a fresh one, far below the first read as seconds.
		const msUnit = new RetryAfterUnit();
		for (const [value, at] of [
			[200, 0],
			[150, 200],
			[120, 350],
			[90, 470],
		])
			expect(msUnit.read(short(value), true, at).ms).toBe(value);
		expect(msUnit.inSeconds).toBe(false);
		// The run's own requests taking the slot (one accepted in between) is not the service refusing.
		const busy = new RetryAfterUnit();
		busy.read(short(50), true, 0);
		busy.read(short(50), true, 50);
		busy.accepted();
		busy.read(short(50), true, 100);
		busy.read(short(50), true, 150);
		expect(busy.inSeconds).toBe(false);
		// Requests already on their way when a 429 came back (not fresh) count for nothing.
		const inFlight = new RetryAfterUnit();
		for (let i = 0; i < 10; i++) inFlight.read(short(1), false, i);
		inFlight.read(short(1), true, 60);
		expect(inFlight.inSeconds).toBe(false);
		// A header breaks a streak.
		const other = new RetryAfterUnit();
		other.read(short(1), true, 0);
		other.read(short(1), true, 50);
		other.read(retryAfter({ retryAfter: 1 }, { 'retry-after': '1' }), true, 100);
		other.read(short(1), true, 1100);
		expect(other.inSeconds).toBe(false);
	});

	test.each([
		[{ retryAfter: 1 }, {}, false],
		[{ retryAfter: 2 }, { 'retry-after': '2' }, true],
		[{ retryAfter: 0.05 }, {}, false],
		[{ retryAfter: 1500 }, {}, false],
		[{}, { 'retry-after': '1' }, true],
		[{}, { 'retry-after': '0.5' }, false],
	])(
		'body %j, headers %j: given in whole seconds (may be up to 1 s too long): %s',
		(body, headers, whole) => {
			expect(retryAfter(body, headers).wholeSeconds).toBe(whole);
		},
	);
});

test.each([
	[{ limit: 20 }, 20],
	[{ limit: ' 60 ' }, 60],
	[{ limit: 2.5 }, 2.5],
	[{ limit: '100/hour' }, undefined],
	[{ limit: '' }, undefined],
	[{ limit: 0 }, undefined],
	[{ limit: -1 }, undefined],
	[{ limit: null }, undefined],
	[{}, undefined],
	[undefined, undefined],
])(
	"a 429's limit %j is a count (%s) only when it is a positive number or its text",
	(body, expected) => {
		expect(refusalLimit(body)).toBe(expected);
	},
);

describe('rate-limit headers of an accepted answer (the real backend sends them; the spec shows none)', () => {
	const now = Date.UTC(2030, 0, 1, 0, 0, 0);
	test.each([
		[
			'NestJS (the real backend): seconds until the window ends',
			{ 'x-ratelimit-limit': '90', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '3600' },
			{ waitMs: 3_600_000, limit: 90 },
		],
		[
			'the IETF draft names',
			{ 'ratelimit-remaining': '0', 'ratelimit-reset': '2' },
			{ waitMs: 2000 },
		],
		[
			'a Unix time in seconds (GitHub)',
			{ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 30) },
			{ waitMs: 30_000 },
		],
		[
			'a Unix time in milliseconds',
			{ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now + 1500) },
			{ waitMs: 1500 },
		],
		[
			'a fraction of a second',
			{ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '0.25' },
			{ waitMs: 250 },
		],
		[
			'an empty limit is no limit',
			{ 'x-ratelimit-limit': '', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '2' },
			{ waitMs: 2000 },
		],
		[
			"a daily quota's reset 20 h away, believed as it is, not cut to an hour (#68)",
			{ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '72001' },
			{ waitMs: 72_001_000 },
		],
		[
			'a reset in 2099, past any real window, is not believed (#68)',
			{ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Date.UTC(2099, 0, 1) / 1000) },
			undefined,
		],
		['some remain', { 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '3600' }, undefined],
		['none remain, no reset', { 'x-ratelimit-remaining': '0' }, undefined],
		[
			'a reset in the past',
			{ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 - 5) },
			undefined,
		],
		[
			'a reset that is not a number',
			{ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': 'soon' },
			undefined,
		],
		['no headers', {}, undefined],
	])('%s', (_name, headers, expected) => {
		expect(quotaUsedUp(headers, now)).toEqual(expected);
	});

	test("none remain until a daily quota's reset 20 h away: the next item is not sent and says 20 h, not the 1-hour cap (#68)", async () => {
		const scope = api()
			.post(`${API_PATH}/hooks/score`)
			.reply(200, { score: 1 }, { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '72001' });
		const result = await runAction(
			{ resource: 'hook', operation: 'score', text: '={{ $json.text }}' },
			{
				items: [{ json: { text: 'a' } }, { json: { text: 'b' } }],
				onError: 'continueRegularOutput',
			},
		);
		expect(result.output(NODE).map((item) => item.json.score ?? item.json.error)).toEqual([
			1,
			'Rate limited: try again in 20 h',
		]);
		scope.done();
	});

	test('none remain for a second: the next item waits for the reset instead of drawing a 429', async () => {
		const answeredAt: number[] = [];
		const scope = api()
			.post(`${API_PATH}/hooks/score`)
			.reply(() => {
				answeredAt.push(clockNow());
				return [200, { score: 1 }, { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '1' }];
			})
			.post(`${API_PATH}/hooks/score`)
			.reply(() => {
				answeredAt.push(clockNow());
				return [200, { score: 2 }, { 'X-RateLimit-Remaining': '9', 'X-RateLimit-Reset': '1' }];
			});
		const result = await runAction(
			{ resource: 'hook', operation: 'score', text: '={{ $json.text }}' },
			{ items: [{ json: { text: 'a' } }, { json: { text: 'b' } }] },
		);
		expect(result.error).toBeUndefined();
		expect(result.output(NODE).map((item) => item.json.score)).toEqual([1, 2]);
		expect(answeredAt[1] - answeredAt[0]).toBeGreaterThanOrEqual(990);
		scope.done();
	});
});

describe('transport: downloads stream', () => {
	test('a file reaches the node while the server is still sending it (never buffered whole)', async () => {
		let releaseRest: () => void = () => undefined;
		const firstBytesSeen = new Promise<void>((resolve) => (releaseRest = resolve));
		let seenBeforeEnd = false;
		downloadEvents.onFirstBytes = () => {
			seenBeforeEnd = true;
			releaseRest();
		};
		const chunk = Buffer.alloc(1024 * 1024, 7);
		const server = await localServer((req, res) => {
			res.writeHead(200, {
				'Content-Type': 'video/mp4',
				'Content-Disposition': 'attachment; filename="clip.mp4"',
			});
			res.write(chunk);
			// The rest only once the node has the first bytes; a buffered read would wait here until
			// the 5 s fallback, and seenBeforeEnd would stay false.
			const fallback = new Promise((resolve) => setTimeout(resolve, 5000));
			void Promise.race([firstBytesSeen, fallback]).then(() => {
				for (let i = 0; i < 15; i++) res.write(chunk);
				res.end();
			});
		});
		nock.enableNetConnect('127.0.0.1');
		try {
			const result = await probe(
				{ path: '/uploads/clip.mp4', download: true },
				{ credentials: credentialsFor(server.url) },
			);
			expect(result.error).toBeUndefined();
			expect(seenBeforeEnd).toBe(true);
			expect(result.output(NODE)[0].json).toEqual({
				bytes: 16 * 1024 * 1024,
				mimeType: 'video/mp4',
				fileName: 'clip.mp4',
			});
		} finally {
			downloadEvents.onFirstBytes = undefined;
			await server.close();
		}
	});

	test('a file at the cloud metadata address is never fetched, whatever the instance (#68)', async () => {
		const metadata = nock('http://169.254.169.254').get(/.*/).reply(200, 'role-credentials');
		for (const instanceUrl of [APP_URL, 'http://10.0.0.5']) {
			nock(instanceUrl).get(/.*/).reply(200, {}).persist();
			const result = await probe(
				{ path: 'http://169.254.169.254/latest/meta-data/iam/', download: true },
				{ credentials: credentialsFor(instanceUrl) },
			);
			expect(result.error?.message).toBe(
				'The request could not be sent: the file at http://169.254.169.254 is on a link-local address (169.254.169.254): the node does not fetch files there',
			);
		}
		expect(metadata.isDone()).toBe(false);
		nock.cleanAll();
	});

	test("a public instance's file whose CDN redirects to 127.0.0.1 is refused at the redirect; the key never leaves the instance (#68)", async () => {
		api().get('/uploads/a.png').reply(302, '', { Location: 'https://cdn.example.net/a.png' });
		const cdn = nock('https://cdn.example.net', { badheaders: ['authorization'] })
			.get('/a.png')
			.reply(302, '', { Location: 'http://127.0.0.1:9/a.png' });
		const loopback = nock('http://127.0.0.1:9').get(/.*/).reply(200, 'secret-file');
		const result = await probe({ path: '/uploads/a.png', download: true });
		expect(result.error?.message).toMatch(
			/the file at http:\/\/127\.0\.0\.1:9 is on a loopback address/,
		);
		expect((result.error as { description?: string }).description).toMatch(/HTTP Request node/);
		cdn.done();
		expect(loopback.isDone()).toBe(false);
		nock.cleanAll();
	});

	test('a self-hosted instance on its own network fetches files from that network (#68)', async () => {
		nock('http://10.0.0.5').get(/.*/).reply(200, {}).persist();
		const storage = nock('http://10.0.0.9:9000', { badheaders: ['authorization'] })
			.get('/bucket/a.png')
			.reply(200, 'png', { 'Content-Type': 'image/png' });
		const result = await probe(
			{ path: 'http://10.0.0.9:9000/bucket/a.png', download: true },
			{ credentials: credentialsFor('http://10.0.0.5') },
		);
		expect(result.error).toBeUndefined();
		storage.done();
		nock.cleanAll();
	});

	test('an error answer to a download is read as the API error it is', async () => {
		api().get('/uploads/missing.mp4').reply(404, { msg: 'file not found' });
		const result = await probe({ path: '/uploads/missing.mp4', download: true });
		expect(result.error?.message).toBe('Not found: GET /uploads/missing.mp4 (404): file not found');
	});
});

describe('transport: redirects of requests that carry the credential are followed by the node', () => {
	const connection = {
		appURL: APP_URL,
		baseURL: `${APP_URL}${API_PATH}`,
		secret: API_KEY,
		host: 'app.example.com',
	};

	test('through n8n: instance → instance keeps the key; instance → CDN drops it, the file arrives', async () => {
		const seen: Array<[string, string | undefined]> = [];
		const record = function (this: {
			req: { path: string; headers: Record<string, string | undefined> };
		}) {
			seen.push([this.req.path, this.req.headers.authorization]);
		};
		const instance = nock(APP_URL)
			.get('/uploads/a.png')
			.reply(function () {
				record.call(this);
				return [302, '', { Location: '/files/a.png' }];
			})
			.get('/files/a.png')
			.reply(function () {
				record.call(this);
				return [307, '', { Location: 'https://cdn.example.net/a.png?sig=1' }];
			});
		const cdn = nock('https://cdn.example.net')
			.get('/a.png')
			.query(true)
			.reply(function () {
				record.call(this);
				return [200, Buffer.from('png'), { 'Content-Type': 'image/png' }];
			});
		const result = await probe({ path: '/uploads/a.png', download: true });
		expect(result.error).toBeUndefined();
		expect(seen).toEqual([
			['/uploads/a.png', API_KEY],
			['/files/a.png', API_KEY],
			['/a.png?sig=1', undefined],
		]);
		instance.done();
		cdn.done();
	});

	test('an n8n whose helper puts Authorization back on every redirect (before 2.4x) never gets to follow one with it', async () => {
		// The request helper as old n8n-core has it: it follows redirects itself, copying the
		// request's Authorization header to the next host (getBeforeRedirectFn).
		const hosts: Array<[string, string | undefined]> = [];
		const answers: Record<
			string,
			{ statusCode: number; headers: Record<string, string>; body: string }
		> = {
			[`${APP_URL}/uploads/a.png`]: {
				statusCode: 302,
				headers: { location: 'https://cdn.example.net/a.png' },
				body: '',
			},
			'https://cdn.example.net/a.png': { statusCode: 200, headers: {}, body: 'png' },
		};
		const oldHelper = async (options: IHttpRequestOptions) => {
			let url = options.url;
			for (;;) {
				const headers = options.headers as Record<string, string> | undefined;
				hosts.push([new URL(url).host, headers?.Authorization]);
				const answer = answers[url];
				if (
					answer.statusCode >= 300 &&
					answer.statusCode < 400 &&
					options.disableFollowRedirect !== true
				) {
					url = answer.headers.location;
					continue;
				}
				return answer;
			}
		};
		const ctx = {
			helpers: { httpRequest: oldHelper },
			getExecutionCancelSignal: () => undefined,
		} as unknown as Parameters<typeof sendAuthenticated>[0];
		const response = await sendAuthenticated(ctx, connection, {
			method: 'GET',
			url: '/uploads/a.png',
			baseURL: `${APP_URL}`,
		});
		expect(response.body).toBe('png');
		expect(hosts).toEqual([
			['app.example.com', API_KEY],
			['cdn.example.net', undefined],
		]);
	});

	test('a redirect of an upload (a streamed body cannot be sent twice) is returned, not followed', async () => {
		const calls: string[] = [];
		const helper = async (options: IHttpRequestOptions) => {
			calls.push(options.url);
			return { statusCode: 307, headers: { location: '/elsewhere' }, body: '' };
		};
		const ctx = { helpers: { httpRequest: helper } } as unknown as Parameters<
			typeof sendAuthenticated
		>[0];
		const body = Readable.from([Buffer.from('file')]);
		const response = await sendAuthenticated(ctx, connection, {
			method: 'POST',
			url: '/upload',
			baseURL: connection.baseURL,
			body,
		});
		expect(response.statusCode).toBe(307);
		expect(calls).toEqual([`${APP_URL}${API_PATH}/upload`]);
	});

	test('a redirect loop ends after 5 redirects with the last answer', async () => {
		let calls = 0;
		const helper = async () => {
			calls++;
			return { statusCode: 302, headers: { location: `/again/${calls}` }, body: '' };
		};
		const ctx = { helpers: { httpRequest: helper } } as unknown as Parameters<
			typeof sendAuthenticated
		>[0];
		const response = await sendAuthenticated(ctx, connection, {
			method: 'GET',
			url: '/loop',
			baseURL: connection.baseURL,
		});
		expect(response.statusCode).toBe(302);
		expect(calls).toBe(6);
	});
});

describe('transport: a redirect never turns a write into a GET, nor sends it elsewhere', () => {
	const channels = () =>
		api()
			.get(`${API_PATH}/integrations`)
			.reply(200, [{ id: 'ch_x', name: 'X', identifier: 'x' }]);
	const createPost = {
		resource: 'post',
		operation: 'create',
		type: 'now',
		channels: ['ch_x'],
		content: { parts: [{ text: 'Hello there' }] },
	};

	test.each([301, 302, 303])(
		'Post → Create answered %i (same origin): fails naming the Location; no GET follows; only a 301 says nothing was created',
		async (status) => {
			channels();
			const scope = api()
				.post(`${API_PATH}/posts`)
				.reply(status, '', { Location: `${API_PATH}/posts?moved=1` });
			// The list the redirect points to must never be read as the answer.
			const list = api()
				.get(`${API_PATH}/posts`)
				.query(true)
				.reply(200, [{ postId: 'p_old', integration: 'ch_x' }]);
			const result = await runAction(createPost);
			// A 301 moves the address (a proxy: the request went no further); after a 302 or 303
			// (Post/Redirect/Get) the service may have created it: the message must not say otherwise.
			expect(result.error?.message).toBe(
				status === 301
					? `The service redirected POST /posts (301) to ${API_PATH}/posts?moved=1; it was not sent there, so nothing was created or changed`
					: `The service answered POST /posts with a redirect (${status}) to ${API_PATH}/posts?moved=1; it may already have done it (a ${status} usually follows a request that was carried out): check before running it again`,
			);
			expect(list.isDone()).toBe(false);
			scope.done();
		},
	);

	test('a 308 to another origin (a moved domain) fails naming the address to use; nothing goes there', async () => {
		channels();
		api()
			.post(`${API_PATH}/posts`)
			.reply(308, '', { Location: `https://new.example.org${API_PATH}/posts` });
		const elsewhere = nock('https://new.example.org')
			.post(`${API_PATH}/posts`)
			.reply(200, [{ postId: 'p_1' }]);
		const result = await runAction(createPost);
		expect(result.error?.message).toBe(
			`The service redirected POST /posts (308) to https://new.example.org${API_PATH}/posts; it was not sent there, so nothing was created or changed`,
		);
		expect((result.error as { description?: string }).description).toContain(
			'set the Instance URL in the credential to https://new.example.org',
		);
		expect(elsewhere.isDone()).toBe(false);
	});

	test('a 307 on the instance keeps the method, body and key', async () => {
		channels();
		const bodies: unknown[] = [];
		const scope = api()
			.post(`${API_PATH}/posts`, (body) => bodies.push(body) > 0)
			.reply(307, '', { Location: `${API_PATH}/v2/posts` })
			.post(`${API_PATH}/v2/posts`, (body) => bodies.push(body) > 0)
			.reply(200, [{ postId: 'p_1', integration: 'ch_x' }]);
		const result = await runAction(createPost);
		expect(result.error).toBeUndefined();
		expect(result.output(NODE).map((item) => item.json)).toEqual([
			{ postId: 'p_1', integration: 'ch_x' },
		]);
		expect(bodies).toHaveLength(2);
		expect(bodies[1]).toEqual(bodies[0]);
		scope.done();
	});

	test('Post → Delete answered 301: fails, no GET follows', async () => {
		const scope = api()
			.delete(`${API_PATH}/posts/p_1`)
			.reply(301, '', { Location: `${API_PATH}/posts/p_1/` });
		const result = await runAction({
			resource: 'post',
			operation: 'delete',
			postId: { __rl: true, mode: 'id', value: 'p_1' },
		});
		expect(result.error?.message).toBe(
			`The service redirected DELETE /posts/p_1 (301) to ${API_PATH}/posts/p_1/; it was not sent there, so nothing was created or changed`,
		);
		scope.done();
	});
});

describe('transport: the unit of retryAfter, with the Retry-After header as evidence', () => {
	test('milliseconds: retryAfter 200 beside "Retry-After: 1" is waited as 200 ms, and the request goes through', async () => {
		const scope = api()
			.get(`${API_PATH}/agents/ping`)
			.reply(
				429,
				{ code: 'RATE_LIMITED', bucket: 'default', limit: 5, retryAfter: 200 },
				{ 'Retry-After': '1' },
			)
			.get(`${API_PATH}/agents/ping`)
			.reply(200, { ok: true });
		const result = await probe({ path: '/agents/ping' });
		expect(result.error).toBeUndefined();
		scope.done();
	});

	test('an hourly quota: retryAfter 3600 beside "Retry-After: 3600" fails at once, naming the wait; no second request', async () => {
		let requests = 0;
		api()
			.persist()
			.get(`${API_PATH}/agents/ping`)
			.reply(() => {
				requests++;
				return [
					429,
					{ code: 'RATE_LIMITED', bucket: 'daily', limit: 1000, retryAfter: 3600 },
					{ 'Retry-After': '3600' },
				];
			});
		const result = await probe({ path: '/agents/ping' });
		expect(result.error?.message).toBe(
			'Rate limited on bucket "daily" (limit 1000): try again in 60 min',
		);
		expect((result.error as { description?: string }).description).toBe(
			'The service asks to wait 60 min: that passes the node\'s "Max Rate Limit Wait" of 60 s, so it was not sent again. Raise that option under Request Options, or send fewer items at once.',
		);
		expect(requests).toBe(1);
	});
});
