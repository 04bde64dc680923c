import { API_KEY, API_PATH, api, NODE, runAction } from '../helpers/fixtures.cjs';

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

	test('Check Connection: a wrong key fails with the 401 advice', async () => {
		api().get(`${API_PATH}/agents/ping`).reply(401);
		const result = await runAction({ resource: 'account', operation: 'checkConnection' });
		expect(result.error?.message).toContain(
			'the API key or token is missing, wrong, or was revoked',
		);
	});
});
