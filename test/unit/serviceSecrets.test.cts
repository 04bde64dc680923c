/**
 * A service's secrets never reach an item: every operation, fed answers full of token-like fields
 * (as the real backend's Disconnect gives a channel's OAuth tokens), outputs none of them, and
 * neither do its error items when the service refuses with such a body.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import nock from 'nock';

import { resources } from '../../nodes/SocialContent/actions/router';
import { isSecretField, withoutSecrets } from '../../nodes/shared/shapes/secrets';
import {
	API_KEY,
	APP_URL,
	NODE,
	errorText,
	runAction,
	startGeneration,
} from '../helpers/fixtures.cjs';

/** One value per spelling of a secret field; none may appear in anything the node outputs. */
const SECRET_FIELDS: IDataObject = {
	token: 'SVC-SECRET-token',
	refreshToken: 'SVC-SECRET-refreshToken',
	accessToken: 'SVC-SECRET-accessToken',
	access_token: 'SVC-SECRET-access_token',
	refresh_token: 'SVC-SECRET-refresh_token',
	secret: 'SVC-SECRET-secret',
	password: 'SVC-SECRET-password',
	apiKey: 'SVC-SECRET-apiKey',
	API_KEY: 'SVC-SECRET-API_KEY',
	clientSecret: 'SVC-SECRET-clientSecret',
	'Client-Secret': 'SVC-SECRET-Client-Secret',
	TOKEN: 'SVC-SECRET-TOKEN',
	customInstanceDetails: 'SVC-SECRET-customInstanceDetails',
	// Named as other services name theirs (#40).
	idToken: 'SVC-SECRET-idToken',
	id_token: 'SVC-SECRET-id_token',
	tokenSecret: 'SVC-SECRET-tokenSecret',
	oauth_token_secret: 'SVC-SECRET-oauth_token_secret',
	accessTokenSecret: 'SVC-SECRET-accessTokenSecret',
	privateKey: 'SVC-SECRET-privateKey',
	apiSecret: 'SVC-SECRET-apiSecret',
	appSecret: 'SVC-SECRET-appSecret',
	appPassword: 'SVC-SECRET-appPassword',
	sessionToken: 'SVC-SECRET-sessionToken',
	bearerToken: 'SVC-SECRET-bearerToken',
	authorization: 'SVC-SECRET-authorization',
	cookie: 'SVC-SECRET-cookie',
	jwt: 'SVC-SECRET-jwt',
	// Read by the parts of their names (#50).
	secretKey: 'SVC-SECRET-secretKey',
	secret_key: 'SVC-SECRET-secret_key',
	accessKey: 'SVC-SECRET-accessKey',
	aws_secret_access_key: 'SVC-SECRET-aws_secret_access_key',
	encryptionKey: 'SVC-SECRET-encryptionKey',
	clientKey: 'SVC-SECRET-clientKey',
	privateKeyPem: 'SVC-SECRET-privateKeyPem',
	passphrase: 'SVC-SECRET-passphrase',
	pin: 'SVC-SECRET-pin',
	sessionId: 'SVC-SECRET-sessionId',
	session: 'SVC-SECRET-session',
	sid: 'SVC-SECRET-sid',
	auth: 'SVC-SECRET-auth',
	bearer: 'SVC-SECRET-bearer',
	credential: 'SVC-SECRET-credential',
	tokens: 'SVC-SECRET-tokens',
	accessTokens: 'SVC-SECRET-accessTokens',
	secrets: 'SVC-SECRET-secrets',
	passwords: 'SVC-SECRET-passwords',
	apiKeys: 'SVC-SECRET-apiKeys',
	// JSON text in any field, not only a post's settings.
	metadata: JSON.stringify({ note: 'kept', refresh_token: 'SVC-SECRET-in-json-text' }),
};

/** A record with the fields the operations read, and secrets at every depth. */
function poisoned(extra: IDataObject = {}): IDataObject {
	return {
		id: 'rec_1',
		postId: 'post_1',
		name: 'Record',
		identifier: 'x',
		status: 'done',
		path: '/uploads/a.png',
		url: 'https://app.example.com/connect',
		date: '2026-12-01T10:00:00.000Z',
		credits: 3,
		score: 80,
		connected: true,
		...SECRET_FIELDS,
		integration: { id: 'ch_x', name: 'X', ...SECRET_FIELDS },
		nested: { ...SECRET_FIELDS, list: [{ ...SECRET_FIELDS, id: 'inner' }] },
		...extra,
	};
}

const channel = { __rl: true, mode: 'id', value: 'ch_x' };
const binaryItem = [
	{
		json: {},
		binary: {
			data: {
				data: Buffer.from('png').toString('base64'),
				mimeType: 'image/png',
				fileName: 'p.png',
			},
		},
	},
];

/** Each operation with parameters that make it send its request(s). */
const OPERATIONS: Record<string, { parameters: IDataObject; items?: IDataObject[] }> = {
	'account.checkConnection': { parameters: {} },
	'account.getBrandProfile': { parameters: {} },
	'hook.score': { parameters: { text: 'Stop: read this' } },
	'hook.generate': { parameters: { topic: 'tea', count: 2 } },
	'studio.listFormats': { parameters: { simplify: false } },
	'studio.startGeneration': {
		parameters: startGeneration('wall_of_text', { hook: 'x' }) as IDataObject,
	},
	'studio.getGeneration': {
		parameters: { generationId: { __rl: true, mode: 'id', value: 'gen_1' }, simplify: false },
	},
	'studio.listGenerations': { parameters: { returnAll: true, simplify: false } },
	'studio.getCredits': { parameters: {} },
	'channel.list': { parameters: { simplify: false } },
	'channel.getConnectUrl': { parameters: { provider: 'x' } },
	'channel.isConnected': { parameters: {} },
	'channel.disconnect': { parameters: { channel } },
	'channel.getAnalytics': { parameters: { channel } },
	'channel.getPostAnalytics': {
		parameters: { postId: { __rl: true, mode: 'id', value: 'post_1' } },
	},
	'media.upload': { parameters: { binaryPropertyName: 'data' }, items: binaryItem },
	'media.importFromUrl': { parameters: { url: 'https://example.com/a.png' } },
	'media.list': { parameters: { returnAll: true, simplify: false } },
	'post.create': {
		parameters: {
			type: 'now',
			channels: ['ch_x'],
			content: { parts: [{ text: 'Hello there' }] },
			media: { files: [{ source: 'binary', binaryPropertyName: 'data' }] },
		},
		items: binaryItem,
	},
	'post.list': { parameters: { startDate: '2026-11-01', endDate: '2026-12-31' } },
	'post.delete': { parameters: { postId: { __rl: true, mode: 'id', value: 'post_1' } } },
	'post.findFreeSlot': { parameters: { channel } },
};

const secretValues = Object.values(SECRET_FIELDS) as string[];
const leaked = (text: string) => secretValues.filter((secret) => text.includes(secret));

/** Every request answers with secrets: channels as a list (Post → Create checks them), the rest as one record. */
function serviceAnswering(status: number) {
	const record = () => poisoned(status >= 400 ? { msg: 'refused', message: ['refused here'] } : {});
	nock(APP_URL, { reqheaders: { authorization: API_KEY } })
		.persist()
		.get(/\/integrations$/)
		.reply(status, [poisoned({ id: 'ch_x', identifier: 'x' })])
		.get(/.*/)
		.reply(status, record)
		.post(/.*/)
		.reply(status, record)
		.delete(/.*/)
		.reply(status, record);
}

describe('no secret of the service reaches an item', () => {
	test('the table covers every operation', () => {
		const operations = Object.entries(resources).flatMap(([resource, operations]) =>
			Object.keys(operations).map((operation) => `${resource}.${operation}`),
		);
		expect(Object.keys(OPERATIONS).sort()).toEqual(operations.sort());
	});

	test('withoutSecrets removes each spelling at any depth and keeps everything else', () => {
		expect(withoutSecrets(poisoned())).toEqual({
			id: 'rec_1',
			postId: 'post_1',
			name: 'Record',
			identifier: 'x',
			status: 'done',
			path: '/uploads/a.png',
			url: 'https://app.example.com/connect',
			date: '2026-12-01T10:00:00.000Z',
			credits: 3,
			score: 80,
			connected: true,
			// JSON text keeps what is not secret.
			metadata: '{"note":"kept"}',
			integration: { id: 'ch_x', name: 'X', metadata: '{"note":"kept"}' },
			nested: { list: [{ id: 'inner', metadata: '{"note":"kept"}' }], metadata: '{"note":"kept"}' },
		});
		expect(
			[
				'tokenExpiration',
				'secretary',
				'passwordHint',
				'nextPageToken',
				'maxTokens',
				'publicKey',
				'key',
				'keyId',
				'objectKey',
				'author',
				'pinned',
				'keyboard',
			].filter((name) => isSecretField(name)),
		).toEqual([]);
		// A number under a token's name is a count, not a token.
		expect(isSecretField('tokens', 512)).toBe(false);
		expect(isSecretField('tokens', 'SVC-SECRET-tokens')).toBe(true);
	});

	test.each(Object.keys(OPERATIONS))('%s: its output items hold none', async (key) => {
		const [resource, operation] = key.split('.');
		const { parameters, items } = OPERATIONS[key];
		serviceAnswering(200);
		const result = await runAction({ resource, operation, ...parameters } as INodeParameters, {
			items: items ?? [{}],
		});
		expect(result.error).toBeUndefined();
		const output = result.output(NODE);
		expect(output.length).toBeGreaterThan(0);
		expect(leaked(JSON.stringify(output.map((item) => item.json)))).toEqual([]);
	});

	test.each(Object.keys(OPERATIONS))('%s: its error item and error hold none', async (key) => {
		const [resource, operation] = key.split('.');
		const { parameters, items } = OPERATIONS[key];
		serviceAnswering(400);
		const result = await runAction({ resource, operation, ...parameters } as INodeParameters, {
			items: items ?? [{}],
			onError: 'continueRegularOutput',
		});
		expect(result.error).toBeUndefined();
		const [failed] = result.output(NODE);
		expect(failed.json.error).toEqual(expect.any(String));
		const error = failed.error as Error & { description?: string; context?: unknown };
		const shown = [
			JSON.stringify(failed.json),
			error.message,
			error.description ?? '',
			JSON.stringify(error),
			JSON.stringify(error.context ?? {}),
		].join('\n');
		expect(leaked(shown)).toEqual([]);
		// Without the node's error output: the error n8n shows for the run.
		serviceAnswering(400);
		const stopped = await runAction({ resource, operation, ...parameters } as INodeParameters, {
			items: items ?? [{}],
		});
		expect(stopped.error).toBeDefined();
		expect(leaked(errorText(stopped))).toEqual([]);
	});
});

describe('secrets in other places of an answer (#40)', () => {
	test("a post's settings sent as JSON text: a secret inside is stripped too", async () => {
		nock(APP_URL, { reqheaders: { authorization: API_KEY } })
			.get(/\/posts/)
			.query(true)
			.reply(200, [
				{
					id: 'post_1',
					content: 'Hi',
					publishDate: '2026-12-01T10:00:00.000Z',
					settings: JSON.stringify({ who_can_reply: 'everyone', token: 'SVC-SECRET-in-settings' }),
				},
			]);
		const result = await runAction({
			resource: 'post',
			operation: 'list',
			startDate: '2026-11-01',
			endDate: '2026-12-31',
		});
		const json = JSON.stringify(result.output(NODE).map((item) => item.json));
		expect(json).toContain('who_can_reply');
		expect(json).not.toContain('SVC-SECRET-in-settings');
	});

	test("the credential's own key echoed in a 200 answer never reaches the run data", async () => {
		nock(APP_URL, { reqheaders: { authorization: API_KEY } })
			.get(/\/is-connected$/)
			.reply(200, { connected: true, note: `requested with ${API_KEY}`, echo: { key: API_KEY } });
		const result = await runAction({ resource: 'channel', operation: 'isConnected' });
		const json = JSON.stringify(result.output(NODE).map((item) => item.json));
		expect(json).toContain('[redacted]');
		expect(json).not.toContain(API_KEY);
	});
});

describe('secret names decided by rule, secrets written into values (#68)', () => {
	/** Names that passed before: each must be caught. */
	const NAMES = [
		'pageAccessToken',
		'primaryKey',
		'storageAccountKey',
		'clientsecret',
		'accesstoken',
		'pwd',
		'pass',
		'otp',
		'mfaCode',
		'creds',
		'dsn',
		'connectionString',
		'databaseUrl',
	];
	/** Ordinary fields that only look like secrets: kept. */
	const ORDINARY = [
		'passCount',
		'passengerName',
		'bypass',
		'compass',
		'credits',
		'authUrl',
		'signInUrl',
		'nextPageToken',
		'maxTokens',
		'tokenCount',
		'sessionCount',
		'mfaEnabled',
		'otpLength',
		'storageKey',
		'accessKeyId',
		'primaryColor',
		'keyId',
	];

	test.each(NAMES)('%s is a secret, at any depth', (name) => {
		const value = `SVC-SECRET-${name}`;
		const answer = { id: 'x', [name]: value, nested: [{ [name]: value }] };
		expect(JSON.stringify(withoutSecrets(answer))).not.toContain(value);
	});

	test('ordinary fields that look like secrets are kept, and a boolean is never a secret', () => {
		expect(ORDINARY.filter((name) => isSecretField(name, 'value'))).toEqual([]);
		expect(isSecretField('pass', true)).toBe(false);
		expect(withoutSecrets({ pass: false, passCount: 3 })).toEqual({ pass: false, passCount: 3 });
	});

	test.each([
		[
			'user info in a URL',
			'see https://admin:SVC-W-1@db.example.com/x',
			'https://[redacted]@db.example.com/x',
		],
		[
			'a DSN password',
			'postgres://app:SVC-W-2@10.0.0.5:5432/app failed',
			'postgres://[redacted]@10.0.0.5:5432/app failed',
		],
		[
			'a key=value DSN',
			'Server=db;Database=app;User Id=sa;Password=SVC-W-3;',
			'Password=[redacted];',
		],
		[
			'Bearer in free text',
			'sent with Bearer SVC-W-4.abc.def, refused',
			'Bearer [redacted], refused',
		],
		[
			'an access_token in a query',
			'https://cb.example.com/done?state=1&access_token=SVC-W-5&x=2',
			'state=1&access_token=[redacted]&x=2',
		],
		[
			'a base64 Basic login',
			`Basic ${Buffer.from('user:SVC-W-6').toString('base64')} was refused`,
			'Basic [redacted] was refused',
		],
		[
			'a header line',
			'request had X-Api-Key: SVC-W-7\nand failed',
			'X-Api-Key: [redacted]\nand failed',
		],
		['JSON cut short in a field', '{"token":"SVC-W-8","note":"kept"', '"token":"[redacted]"'],
	])('%s is redacted in any text field', (_name, text, shown) => {
		const stripped = JSON.stringify(withoutSecrets({ note: text }));
		expect(stripped).not.toMatch(/SVC-W-\d/);
		expect(stripped).toContain(JSON.stringify(shown).slice(1, -1));
	});

	test('ordinary text and a signed file link are left as they are', () => {
		const signed =
			'https://bucket.s3.amazonaws.com/out.mp4?X-Amz-Credential=AKIA%2F20261207&X-Amz-Signature=abc123';
		const texts = [
			'Basic features included',
			'Bearer tokens are refused',
			'a=1 and b=2',
			'https://example.com/post?id=4&page=2',
			signed,
			'Meeting at 10:00, room "B"',
		];
		expect(texts.map((text) => withoutSecrets(text))).toEqual(texts);
	});

	test('the body of a text 500 names no secret in the error', async () => {
		nock(APP_URL)
			.get(/\/agents\/ping$/)
			.reply(500, 'Internal error: connect postgres://app:SVC-TEXT-500@10.0.0.5/app refused', {
				'Content-Type': 'text/plain',
			})
			.persist();
		const result = await runAction({ resource: 'account', operation: 'checkConnection' });
		const shown = errorText(result);
		expect(shown).toContain('postgres://[redacted]@10.0.0.5/app');
		expect(shown).not.toContain('SVC-TEXT-500');
	});
});
