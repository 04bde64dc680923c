import type { NodeApiError } from 'n8n-workflow';

import { API_KEY, API_PATH, api, NODE, OAUTH_TOKEN, runAction } from '../helpers/fixtures.cjs';

describe('Account', () => {
	test('Check Connection: GET /agents/ping with the raw key, output the ping result', async () => {
		const scope = api()
			.get(`${API_PATH}/agents/ping`)
			.matchHeader('authorization', API_KEY)
			.matchHeader('accept', 'application/json')
			.reply(200, {
				ok: true,
				organization: { id: 'org1', name: 'Acme' },
				tools: ['hooks', 'studio'],
			});
		const result = await runAction({ resource: 'account', operation: 'checkConnection' });
		expect(result.output(NODE)).toEqual([
			{
				json: { ok: true, organization: { id: 'org1', name: 'Acme' }, tools: ['hooks', 'studio'] },
				pairedItem: { item: 0 },
			},
		]);
		scope.done();
	});

	test('Get Brand Profile: GET /brand, `{ found: false }` passed through', async () => {
		const scope = api().get(`${API_PATH}/brand`).reply(200, { found: false });
		const result = await runAction({ resource: 'account', operation: 'getBrandProfile' });
		expect(result.output(NODE)).toEqual([{ json: { found: false }, pairedItem: { item: 0 } }]);
		scope.done();
	});

	test('Get Brand Profile: a found profile keeps all its fields', async () => {
		const profile = { found: true, name: 'Acme', voice: 'playful', audiences: [{ id: 'a1' }] };
		const scope = api().get(`${API_PATH}/brand`).reply(200, profile);
		const result = await runAction({ resource: 'account', operation: 'getBrandProfile' });
		expect(result.output(NODE)[0].json).toEqual(profile);
		scope.done();
	});

	test('Check Connection, a wrong key on an API-key credential: advice for API keys only, the status once (n8n shows the code beside the message)', async () => {
		api().get(`${API_PATH}/agents/ping`).reply(401);
		const result = await runAction({ resource: 'account', operation: 'checkConnection' });
		const error = result.error as NodeApiError;
		expect(error.message).toBe('The service rejected the API key: it is wrong, or was revoked');
		expect(error.description).toBe(
			'Open the credential "test credential" (Social Content API) and paste a valid API key, created in the application under its agents area.',
		);
		expect(error.httpCode).toBe('401');
	});

	test('Check Connection, a revoked OAuth2 app: advice to reconnect, not to check a key; the status once', async () => {
		api({ token: OAUTH_TOKEN }).get(`${API_PATH}/agents/ping`).reply(401);
		const result = await runAction(
			{ resource: 'account', operation: 'checkConnection' },
			{ authentication: 'oAuth2' },
		);
		const error = result.error as NodeApiError;
		expect(error.message).toBe(
			"The service rejected the OAuth2 token: the app's access was revoked",
		);
		expect(error.description).toBe(
			'Its tokens never expire, so a rejected one was revoked. Open the credential "test credential" (Social Content OAuth2 API) and click "Connect my account" (or "Reconnect").',
		);
		expect(error.httpCode).toBe('401');
	});
});
