/**
 * Answers the secret stripping cannot read safely fail closed (#68): nested deeper than the
 * stripping goes, or JSON that does not parse. Nothing of them reaches an item, an error or a
 * log; the error says why, and what to do.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { LoggerProxy } from 'n8n-workflow';
import nock from 'nock';

import {
	MAX_ANSWER_DEPTH,
	UnreadableAnswer,
	withoutSecrets,
} from '../../nodes/shared/shapes/secrets';
import {
	API_PATH,
	APP_URL,
	NODE,
	apiKeyCredentials,
	errorText,
	runAction,
} from '../helpers/fixtures.cjs';
import { GENERATIONS_PATH } from '../helpers/generationService.cjs';
import { activeTrigger, triggerWorkflow } from '../helpers/harness.cjs';

const PASSWORD = 'SVC-DEEP-password-P';
const TOKEN = 'SVC-DEEP-token-T';
const OTHER_TOKEN = 'SVC-DEEP-other-record-token';
const SECRETS = [PASSWORD, TOKEN, OTHER_TOKEN];
/** Deeper than a recursive walk survives (about 2,250), as a Node service can write (about 4,100). */
const DEPTH = 3000;
const deep = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
/** The body: `{"msg":"invalid","password":"P","token":"T","x":` + 3,000 `[` + 3,000 `]` + `}`. */
const DEEP_BODY = `{"msg":"invalid","password":"${PASSWORD}","token":"${TOKEN}","x":${deep}}`;

const leaked = (text: string) => SECRETS.filter((secret) => text.includes(secret));

/** Everything logged while the test runs (n8n's logger, and its proxy), to search for the secrets. */
const logged: string[] = [];
beforeAll(() => {
	const record = (message: string, meta: object = {}) =>
		logged.push(`${message} ${JSON.stringify(meta)}`);
	LoggerProxy.init({ error: record, warn: record, info: record, debug: record } as never);
	const logger = Container.get(Logger);
	for (const level of ['error', 'warn', 'info', 'debug'] as const)
		jest.spyOn(logger, level).mockImplementation(record);
});
beforeEach(() => {
	logged.length = 0;
});
afterEach(() => {
	expect(leaked(logged.join('\n'))).toEqual([]);
});

const ping = (status: number, body: string) =>
	nock(APP_URL)
		.get(`${API_PATH}/agents/ping`)
		.reply(status, body, { 'Content-Type': 'application/json' })
		.persist();

describe('an answer too deep to strip fails closed', () => {
	test('withoutSecrets never throws on deep JSON: it refuses it', () => {
		expect(() => withoutSecrets(JSON.parse(DEEP_BODY))).toThrow(/nested deeper than \d+ levels/);
		// The same as JSON text in a field of a shallow answer: its levels count on from the field.
		expect(() => withoutSecrets({ token: TOKEN, note: DEEP_BODY })).toThrow(UnreadableAnswer);
	});

	test('one level past the bound is refused; one short of it is stripped as ever', () => {
		const nested = (levels: number) => {
			let value: unknown = { token: TOKEN, kept: 1 };
			for (let level = 1; level < levels; level++) value = [value];
			return value;
		};
		expect(() => withoutSecrets(nested(MAX_ANSWER_DEPTH + 1))).toThrow(UnreadableAnswer);
		expect(JSON.stringify(withoutSecrets(nested(MAX_ANSWER_DEPTH - 1)))).toBe(
			`${'['.repeat(MAX_ANSWER_DEPTH - 2)}{"kept":1}${']'.repeat(MAX_ANSWER_DEPTH - 2)}`,
		);
	});

	test.each([400, 200, 500])('GET /agents/ping answering %s with it', async (status) => {
		ping(status, DEEP_BODY);
		const result = await runAction({ resource: 'account', operation: 'checkConnection' });
		expect(result.error).toBeDefined();
		const shown = errorText(result);
		expect(shown).toMatch(/could not be read safely \(nested deeper than \d+ levels\)/);
		expect(leaked(shown)).toEqual([]);
		expect(leaked(JSON.stringify(result.run.data.resultData))).toEqual([]);
	});

	test('one record of a Get Many list echoing an input 3,000 deep: no record, no token', async () => {
		const list = `[{"id":"ch_1","name":"A","token":"${OTHER_TOKEN}"},{"id":"ch_2","name":"B","echo":${deep}}]`;
		nock(APP_URL)
			.get(`${API_PATH}/integrations`)
			.query(true)
			.reply(200, list, { 'Content-Type': 'application/json' })
			.persist();
		const result = await runAction(
			{ resource: 'channel', operation: 'list', simplify: false },
			{ onError: 'continueRegularOutput' },
		);
		const items = result.output(NODE);
		expect(items).toHaveLength(1);
		expect(String(items[0].json.error)).toMatch(/could not be read safely/);
		const error = items[0].error as Error & { description?: string; context?: unknown };
		const shown = [JSON.stringify(items), error.message, error.description, JSON.stringify(error)];
		expect(leaked(shown.join('\n'))).toEqual([]);
	});

	test.each([
		['too deep', DEEP_BODY],
		['JSON cut short', `{"msg":"invalid","password":"${PASSWORD}","token":"${TOKEN}","x":[1,`],
	])(
		'the trigger, its poll answered %s: a clear error, nothing of it logged',
		async (_name, body) => {
			ping(200, body);
			nock(APP_URL)
				.get(GENERATIONS_PATH)
				.query(true)
				.reply(200, body, { 'Content-Type': 'application/json' })
				.persist();
			const workflow = triggerWorkflow({ events: ['done'] });
			let thrown: unknown;
			try {
				await activeTrigger(workflow, apiKeyCredentials, 'activate').poll();
			} catch (error) {
				thrown = error;
			}
			const error = thrown as Error & { description?: string };
			expect(error?.message).toMatch(/could not be read safely/);
			expect(leaked([error.message, error.description, JSON.stringify(error)].join('\n'))).toEqual(
				[],
			);
			// At n8n's start the failed poll is logged, not thrown: the log holds none of it either.
			expect(await activeTrigger(workflow, apiKeyCredentials, 'init').poll()).toBeNull();
			expect(logged.join('\n')).toMatch(/could not be read safely/);
			expect(JSON.stringify(workflow.staticData)).not.toContain('SVC-DEEP');
		},
	);
});

describe('JSON that does not parse fails closed', () => {
	test.each([200, 400])('cut short, answering %s: none of it shown', async (status) => {
		ping(status, `{"msg":"invalid","password":"${PASSWORD}","token":"${TOKEN}","x":[1,`);
		const result = await runAction({ resource: 'account', operation: 'checkConnection' });
		const shown = errorText(result);
		expect(shown).toMatch(/could not be read safely/);
		expect(leaked(shown)).toEqual([]);
	});
});
