import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import nock from 'nock';

import { SocialContentApi } from '../../credentials/SocialContentApi.credentials';
import { apiBaseUrl, appUrl } from '../../nodes/shared/transport/instanceUrl';
import {
	API_KEY,
	API_PATH,
	APP_URL,
	NODE,
	OAUTH_TOKEN,
	oauth2Credentials,
	runAction,
} from '../helpers/fixtures.cjs';
import { runCredentialTest } from '../helpers/credentialTest.cjs';
import { nodeTypes, TestCredentialsHelper, withDefaults } from '../helpers/harness.cjs';

/** What the user may paste as Instance URL, and the API base it must resolve to. */
const URL_TABLE: Array<[string, string]> = [
	['https://app.example.com', 'https://app.example.com/api/public/v1'],
	['https://app.example.com/', 'https://app.example.com/api/public/v1'],
	['https://app.example.com//', 'https://app.example.com/api/public/v1'],
	['https://app.example.com/api', 'https://app.example.com/api/public/v1'],
	['https://app.example.com/api/', 'https://app.example.com/api/public/v1'],
	['https://app.example.com/api/public/v1', 'https://app.example.com/api/public/v1'],
	['https://app.example.com/api/public/v1/', 'https://app.example.com/api/public/v1'],
	['https://app.example.com/API/Public/V1', 'https://app.example.com/api/public/v1'],
	['  https://app.example.com  ', 'https://app.example.com/api/public/v1'],
	['https://example.com/social', 'https://example.com/social/api/public/v1'],
	['https://example.com/social/api/', 'https://example.com/social/api/public/v1'],
	['http://localhost:3000', 'http://localhost:3000/api/public/v1'],
	['http://127.0.0.1:3000/api/public/v1', 'http://127.0.0.1:3000/api/public/v1'],
];

const expressions = new Workflow({ nodes: [], connections: {}, active: false, nodeTypes })
	.expression;

/** Resolves a credential expression with `$credentials`, as n8n's credential tester does. */
function resolveWithCredentials(
	value: string,
	credentials: ICredentialDataDecryptedObject,
): string {
	return expressions.getSimpleParameterValue(
		{ id: 'x', name: 'x', type: 'x', typeVersion: 1, position: [0, 0], parameters: {} },
		value,
		'internal',
		{ $credentials: credentials },
	) as string;
}

describe('Instance URL normalisation', () => {
	test.each(URL_TABLE)('transport: %j → %s', (typed, expected) => {
		expect(apiBaseUrl(typed)).toBe(expected);
	});

	test.each(URL_TABLE)('credential test expression: %j → %s', (typed, expected) => {
		const request = new SocialContentApi().test.request;
		expect(resolveWithCredentials(request.baseURL as string, { instanceUrl: typed })).toBe(
			expected,
		);
	});

	test.each(URL_TABLE)('OAuth2 URLs: %j', (typed, expected) => {
		const app = expected.replace(API_PATH, '');
		const resolved = withDefaults('socialContentOAuth2Api', { instanceUrl: typed });
		expect(resolved.authUrl).toBe(`${app}/oauth/authorize`);
		expect(resolved.accessTokenUrl).toBe(`${app}/api/oauth/token`);
		expect(appUrl(typed)).toBe(app);
	});

	test.each([
		'https://app.example.com/api/public/v1/',
		'https://app.example.com/api',
		'https://app.example.com/',
	])('a node run with %j calls the same API path', async (instanceUrl) => {
		const scope = nock(APP_URL).get(`${API_PATH}/agents/ping`).reply(200, { ok: true });
		const result = await runAction(
			{ resource: 'account', operation: 'checkConnection' },
			{ credentials: { socialContentApi: { instanceUrl, apiKey: API_KEY } } },
		);
		expect(result.output(NODE)[0].json).toEqual({ ok: true });
		scope.done();
	});
});

describe('API key credential', () => {
	test('sends Authorization: <key> exactly, with no Bearer', async () => {
		let headers: IDataObject = {};
		const scope = nock(APP_URL)
			.get(`${API_PATH}/agents/ping`)
			.reply(function () {
				headers = this.req.headers as IDataObject;
				return [200, { ok: true }];
			});
		await runAction({ resource: 'account', operation: 'checkConnection' });
		expect(headers.authorization).toBe(API_KEY);
		expect(String(headers.authorization)).not.toMatch(/bearer/i);
		scope.done();
	});

	test('the node sends the header the credential declares (n8n applies `authenticate` in the credential test and the HTTP Request node)', async () => {
		let sent: IDataObject = {};
		nock(APP_URL)
			.get(`${API_PATH}/agents/ping`)
			.reply(function () {
				sent = this.req.headers as IDataObject;
				return [200, { ok: true }];
			});
		await runAction({ resource: 'account', operation: 'checkConnection' });
		const credential = new SocialContentApi();
		const declared = await new TestCredentialsHelper({}).authenticate(
			{ apiKey: 'sk_any_key_123' },
			credential.name,
			{ url: '' },
		);
		const expected = Object.fromEntries(
			Object.entries(declared.headers ?? {}).map(([name, value]) => [
				name.toLowerCase(),
				String(value).replace('sk_any_key_123', API_KEY),
			]),
		);
		expect(Object.keys(expected)).toEqual(['authorization']);
		expect(sent).toMatchObject(expected);
	});

	test('an empty API key says to paste one, without sending anything', async () => {
		const scope = nock(APP_URL).get(`${API_PATH}/agents/ping`).reply(200, { ok: true });
		const result = await runAction(
			{ resource: 'account', operation: 'checkConnection' },
			{ credentials: { socialContentApi: { instanceUrl: APP_URL, apiKey: '' } } },
		);
		expect(result.error?.message).toBe('The credential has no API key');
		expect((result.error as { description?: string }).description).toMatch(
			/^Open the credential ".+" \(Social Content API\) and paste the API key/,
		);
		expect(scope.isDone()).toBe(false);
		nock.cleanAll();
	});

	test('its fields: Instance URL and a password-type API key (and a hidden one that makes n8n run the redirect check first in a credential test)', () => {
		const credential = new SocialContentApi();
		expect(credential.name).toBe('socialContentApi');
		expect(credential.displayName).toBe('Social Content API');
		expect(credential.properties.map((p) => p.name)).toEqual([
			'instanceUrl',
			'apiKey',
			'instanceChecked',
		]);
		expect(credential.properties[1].typeOptions?.password).toBe(true);
		// Empty: what makes n8n run preAuthentication (the check) before the test's request.
		expect(credential.properties[2]).toMatchObject({
			type: 'hidden',
			typeOptions: { expirable: true },
			default: '',
		});
	});
});

/** The API-key credential test as n8n runs it, with the test key. */
async function testCredential(instanceUrl = APP_URL) {
	return await runCredentialTest('socialContentApi', { instanceUrl, apiKey: API_KEY });
}

describe("credential test (run as n8n runs it: RoutingNode, the credential's authenticate)", () => {
	test('calls GET {instance}/api/public/v1/agents/ping without the key (does it redirect?), then with the raw key', async () => {
		const sent: unknown[] = [];
		const scope = nock(APP_URL)
			.get(`${API_PATH}/agents/ping`)
			.times(2)
			.reply(function () {
				sent.push(this.req.headers.authorization);
				return sent.length === 1 ? [401, { msg: 'Unauthorized' }] : [200, { ok: true, tools: [] }];
			});
		expect(await testCredential(`${APP_URL}/api`)).toEqual({ status: 'OK' });
		expect(sent).toEqual([undefined, API_KEY]);
		scope.done();
	});

	test.each([
		['a web page', '<!doctype html><html>Login</html>', 'text/html'],
		['broken JSON', '{"ok": tru', 'application/json'],
	])('fails with a clear message when the URL answers %s', async (_what, body, contentType) => {
		nock(APP_URL)
			.get(`${API_PATH}/agents/ping`)
			.times(2)
			.reply(200, body, { 'Content-Type': contentType });
		const outcome = await testCredential();
		expect(outcome).toEqual({
			status: 'Error',
			message:
				"The Instance URL did not answer with the API's JSON (a web page or a broken answer). Use the address of your instance, e.g. https://app.example.com",
		});
	});
});

describe('an instance that redirects to another origin (http → https, apex → www, a moved domain)', () => {
	test.each([301, 302, 307, 308])(
		'the credential test fails (%i) naming the address to use, and the key is sent nowhere',
		async (status) => {
			const sent: unknown[] = [];
			nock(APP_URL)
				.get(`${API_PATH}/agents/ping`)
				.reply(function () {
					sent.push(this.req.headers.authorization);
					return [status, '', { Location: `https://www.example.com${API_PATH}/agents/ping` }];
				});
			const elsewhere = nock('https://www.example.com')
				.get(`${API_PATH}/agents/ping`)
				.reply(200, { ok: true });
			const outcome = await testCredential();
			expect(outcome).toEqual({
				status: 'Error',
				message: `The Instance URL redirects (HTTP ${status}) to https://www.example.com${API_PATH}/agents/ping, another address, where the key is not sent. Set the Instance URL to https://www.example.com.`,
			});
			expect(sent).toEqual([undefined]); // only the check, without the key
			expect(elsewhere.isDone()).toBe(false);
		},
	);

	test('an instance under a path that moved: the address to use keeps the path', async () => {
		nock('http://example.com')
			.get(`/social${API_PATH}/agents/ping`)
			.reply(301, '', { Location: `https://example.com/social${API_PATH}/agents/ping` });
		const outcome = await testCredential('http://example.com/social/api');
		expect(outcome.message).toBe(
			`The Instance URL redirects (HTTP 301) to https://example.com/social${API_PATH}/agents/ping, another address, where the key is not sent. Set the Instance URL to https://example.com/social.`,
		);
	});

	test('a redirect on the same origin passes the check; the test with the key then fails on it without following it', async () => {
		const sent: unknown[] = [];
		nock(APP_URL)
			.get(`${API_PATH}/agents/ping`)
			.times(2)
			.reply(function () {
				sent.push(this.req.headers.authorization);
				return [302, '', { Location: `${API_PATH}/agents/ping/` }];
			});
		const outcome = await testCredential();
		expect(outcome).toEqual({
			status: 'Error',
			message:
				'The Instance URL redirects (HTTP 302) to another address, where the key is not sent. Open the Instance URL in a browser and use the address it ends up at (for example https:// instead of http://, or with www.), without extra paths.',
		});
		expect(sent).toEqual([undefined, API_KEY]);
	});

	test.each([
		['no body', ''],
		[
			'the small web page nginx sends',
			'<html><head><title>301 Moved Permanently</title></head><body><center><h1>301 Moved Permanently</h1></center><hr><center>nginx</center></body></html>',
		],
	])(
		'a node call fails naming the address to use instead of a misleading "wrong key" from the other host (%s)',
		async (_body, body) => {
			nock(APP_URL)
				.get(`${API_PATH}/agents/ping`)
				.reply(301, body, {
					Location: `https://www.example.com${API_PATH}/agents/ping`,
					'Content-Type': body ? 'text/html' : 'text/plain',
				});
			const elsewhere = nock('https://www.example.com')
				.get(`${API_PATH}/agents/ping`)
				.reply(401, {});
			const result = await runAction({ resource: 'account', operation: 'checkConnection' });
			expect(result.error?.message).toBe(
				`The instance redirected GET /agents/ping (301) to https://www.example.com${API_PATH}/agents/ping, another address, where the node does not take the credential`,
			);
			expect((result.error as { description?: string }).description).toBe(
				'If the instance moved, set the Instance URL in the credential to https://www.example.com.',
			);
			expect(elsewhere.isDone()).toBe(false);
		},
	);
});

test('a redirect loop on the instance: the node stops after 5 and says so', async () => {
	let hops = 0;
	nock(APP_URL)
		.persist()
		.get(new RegExp(`^${API_PATH}/agents/ping`))
		.reply(() => [302, '', { Location: `${API_PATH}/agents/ping?hop=${++hops}` }]);
	const result = await runAction({ resource: 'account', operation: 'checkConnection' });
	expect(result.error?.message).toBe(
		`The instance redirected GET /agents/ping (302) to ${API_PATH}/agents/ping?hop=6, which the node did not follow (no address, or more than 5 redirects)`,
	);
	expect(hops).toBe(6);
});

describe('OAuth2 credential', () => {
	test('sends the token raw, with no Bearer', async () => {
		let headers: IDataObject = {};
		const scope = nock(APP_URL)
			.get(`${API_PATH}/brand`)
			.reply(function () {
				headers = this.req.headers as IDataObject;
				return [200, { found: false }];
			});
		const result = await runAction(
			{ resource: 'account', operation: 'getBrandProfile' },
			{ authentication: 'oAuth2' },
		);
		expect(result.error).toBeUndefined();
		expect(result.output(NODE)[0].json).toEqual({ found: false });
		expect(headers.authorization).toBe(OAUTH_TOKEN);
		expect(String(headers.authorization)).not.toMatch(/bearer/i);
		scope.done();
	});

	test('a 401 is not followed by a token refresh (tokens never expire): one request, "reconnect"', async () => {
		let calls = 0;
		nock(APP_URL)
			.get(`${API_PATH}/brand`)
			.times(3)
			.reply(() => {
				calls++;
				return [401, {}];
			});
		const tokenEndpoint = nock(APP_URL)
			.post('/api/oauth/token')
			.reply(200, { access_token: 'new' });
		const result = await runAction(
			{ resource: 'account', operation: 'getBrandProfile' },
			{ authentication: 'oAuth2' },
		);
		expect((result.error as { httpCode?: string }).httpCode).toBe('401');
		expect((result.error as { description?: string }).description).toMatch(/reconnect/i);
		expect(calls).toBe(1);
		expect(tokenEndpoint.isDone()).toBe(false);
	});

	test('an unconnected credential says to connect it, without sending anything', async () => {
		const scope = nock(APP_URL).get(`${API_PATH}/brand`).reply(200, { found: false });
		const result = await runAction(
			{ resource: 'account', operation: 'getBrandProfile' },
			{
				authentication: 'oAuth2',
				credentials: {
					socialContentOAuth2Api: {
						...oauth2Credentials.socialContentOAuth2Api,
						oauthTokenData: undefined as unknown as string,
					},
				},
			},
		);
		expect(result.error?.message).toBe('The OAuth2 credential is not connected');
		expect((result.error as { description?: string }).description).toBe(
			'Open the credential "test credential" (Social Content OAuth2 API) and click "Connect my account" (or "Reconnect").',
		);
		expect(scope.isDone()).toBe(false);
		nock.cleanAll();
	});

	// PKCE itself is proven where n8n implements it: the end-to-end "OAuth2 connect flow" test
	// drives n8n's own authorize/callback with Use PKCE on and checks the S256 challenge.
	test('resolved as n8n resolves it: authorization code grant, client credentials in the body, URLs from the Instance URL', () => {
		const resolved = withDefaults('socialContentOAuth2Api', { instanceUrl: APP_URL });
		expect(resolved).toMatchObject({
			grantType: 'authorizationCode',
			authentication: 'body',
			usePkce: false,
			scope: '',
			authUrl: `${APP_URL}/oauth/authorize`,
			accessTokenUrl: `${APP_URL}/api/oauth/token`,
		});
	});
});
