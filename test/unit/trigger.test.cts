import type { IDataObject, WorkflowActivateMode } from 'n8n-workflow';
import nock from 'nock';

import { MAX_ATTEMPTS } from '../../nodes/SocialContentTrigger/generationState';
import { APP_URL, apiKeyCredentials, oauth2Credentials } from '../helpers/fixtures.cjs';
import {
	GENERATIONS_PATH as GEN,
	GenerationService,
	type ListShape,
} from '../helpers/generationService.cjs';
import { activeTrigger, poll, triggerWorkflow } from '../helpers/harness.cjs';
import {
	ids,
	NO_TIMESTAMPS,
	quiet,
	READ_TRIES,
	report,
	useTimelineSuite,
	runTimeline,
	type Step,
} from '../helpers/triggerTimeline.cjs';

useTimelineSuite();

describe('Social Content Trigger: one bad generation never blocks the others', () => {
	test(`outputs that answer 404 for ever (Download Outputs on): the others come out; this one after ${MAX_ATTEMPTS} polls with an error`, async () => {
		const steps: Step[] = [
			{
				act: (s) => {
					s.createDone('a');
					s.createDone('gone');
					s.createDone('b');
					s.missingFiles.add('gone');
				},
				fires: ['a', 'b'],
			},
			{ act: (s) => s.createDone('c'), fires: ['c'] },
			{ restart: true, fires: [] },
			...quiet(MAX_ATTEMPTS - 4),
			{ fires: ['gone'] },
			...quiet(3),
		];
		const result = await runTimeline(NO_TIMESTAMPS, (s) => s.createDoneMany('old_', 5), steps, {
			events: ['done'],
			downloadOutputs: true,
		});
		const gone = result.items.find((item) => item.id === 'gone');
		expect(gone?.error).toMatch(
			new RegExp(
				`^Could not read this generation's details or outputs after ${MAX_ATTEMPTS} tries: Not found: GET /uploads/gone.png \\(404\\)`,
			),
		);
		expect(
			result.items.filter((item) => item.id !== 'gone').every((item) => item.error === undefined),
		).toBe(true);
		report('outputs 404 for ever', result);
	});

	test('a read by id that fails for 3 polls, then works: it fires on the 4th, normally', async () => {
		const shape: ListShape = { timestamps: 'none', order: 'creation', outputsInList: false };
		const result = await runTimeline(
			shape,
			(s) => s.createDoneMany('old_', 5),
			[
				{
					act: (s) => {
						s.createDone('flaky');
						s.createDone('fine');
						s.detailFailures.set('flaky', 3 * 3);
					},
					fires: ['fine'],
				},
				{ fires: [] },
				{ restart: true, fires: [] },
				{ fires: ['flaky'] },
				...quiet(2),
			],
			{ events: ['done'], downloadOutputs: true },
		);
		expect(result.items.find((item) => item.id === 'flaky')?.error).toBeUndefined();
		report('detail read fails 3 polls', result);
	});

	test('a pending generation the list no longer shows is asked for by id; deleted ones are dropped', async () => {
		const shape: ListShape = { timestamps: 'none', order: 'creation', window: 30 };
		const result = await runTimeline(shape, () => undefined, [
			{
				act: (s) => {
					s.create('slow');
					s.create('doomed');
				},
				fires: [],
			},
			{
				act: (s) => s.createDoneMany('burst_', 40),
				fires: Array.from({ length: 30 }, (_, i) => `burst_${i + 10}`),
			},
			{
				act: (s) => {
					s.finish('slow');
					s.remove('doomed');
				},
				fires: ['slow'],
			},
			...quiet(2),
		]);
		expect(result.service.requests.filter((uri) => uri === `${GEN}/doomed`)).toHaveLength(2);
		// The 10 oldest of the burst never showed in a list cut to 30: the one case no client can see.
		expect(result.lost).toBe(10);
	});
});

describe('Social Content Trigger: activation never leaves a dead trigger', () => {
	const ACTIVATIONS: WorkflowActivateMode[] = ['init', 'activate', 'leadershipChange'];

	test.each(ACTIVATIONS)(
		'with state, %s while the service fails: no throw, state unchanged, the next poll catches up',
		async (activation) => {
			const service = new GenerationService(NO_TIMESTAMPS);
			service.serve();
			service.createDone('seed');
			const first = triggerWorkflow({ events: ['done'] });
			expect(await activeTrigger(first, apiKeyCredentials).poll()).toBeNull();
			const saved = JSON.parse(JSON.stringify(first.staticData)) as IDataObject;
			service.createDone('while_down');
			const workflow = triggerWorkflow({ events: ['done'] }, saved);
			const trigger = activeTrigger(workflow, apiKeyCredentials, activation);
			service.listFailures = READ_TRIES;
			expect(await trigger.poll()).toBeNull();
			expect(workflow.staticData).toEqual(saved);
			// Scheduled polls after it report failures as errors (an error execution; the poller stays).
			service.listFailures = READ_TRIES;
			await expect(trigger.poll()).rejects.toThrow(/500/);
			expect(ids(await trigger.poll())).toEqual(['while_down']);
		},
	);

	test.each(ACTIVATIONS)(
		'first activation (%s) while the service fails: no throw; the first poll that reaches it sets the baseline',
		async (activation) => {
			const service = new GenerationService(NO_TIMESTAMPS);
			service.serve();
			service.createDone('before');
			const workflow = triggerWorkflow({ events: ['done'] });
			const trigger = activeTrigger(workflow, apiKeyCredentials, activation);
			service.listFailures = READ_TRIES;
			expect(await trigger.poll()).toBeNull();
			expect(JSON.stringify(workflow.staticData)).not.toContain('generations');
			expect(await trigger.poll()).toBeNull(); // baseline: 'before' does not fire
			service.createDone('after');
			expect(ids(await trigger.poll())).toEqual(['after']);
		},
	);

	test.each([
		['a rejected credential', 401, /rejected the API key/],
		['an Instance URL that serves a web page', 0, /serves a web page/],
	])('a person activating with %s still gets a clear error', async (_name, status, message) => {
		const workflow = triggerWorkflow({ events: ['done'] });
		if (status) nock(APP_URL).get(GEN).query(true).reply(status, { msg: 'Unauthorized' }).persist();
		else
			nock(APP_URL)
				.get(GEN)
				.query(true)
				.reply(200, '<html>login</html>', { 'Content-Type': 'text/html' })
				.persist();
		await expect(activeTrigger(workflow, apiKeyCredentials, 'activate').poll()).rejects.toThrow(
			message,
		);
		// At n8n's start nobody is watching: the trigger stays scheduled and each poll reports it.
		const atStart = activeTrigger(workflow, apiKeyCredentials, 'init');
		expect(await atStart.poll()).toBeNull();
		await expect(atStart.poll()).rejects.toThrow(message);
	});
});

describe('Social Content Trigger: the rest of its contract', () => {
	test('one request per poll when nothing is new; the list is read unfiltered, so pending ones are seen', async () => {
		const service = new GenerationService(NO_TIMESTAMPS);
		service.serve();
		service.createDoneMany('old_', 30);
		const trigger = activeTrigger(triggerWorkflow({ events: ['done'] }), apiKeyCredentials);
		await trigger.poll();
		await trigger.poll();
		await trigger.poll();
		expect(service.requests).toEqual([GEN, GEN, GEN]);
	});

	test('a new generation fires with its outputs (and its files with Download Outputs)', async () => {
		const service = new GenerationService(NO_TIMESTAMPS);
		service.serve();
		service.createDone('seed');
		const trigger = activeTrigger(
			triggerWorkflow({ events: ['done'], downloadOutputs: true }),
			apiKeyCredentials,
		);
		await trigger.poll();
		service.createDone('new');
		const fired = await trigger.poll();
		expect(fired?.[0]).toEqual([
			{
				json: {
					id: 'new',
					status: 'done',
					format: 'slideshow',
					credits: 3,
					outputs: [{ id: 'm_new', path: '/uploads/new.png' }],
				},
				binary: {
					output_0: expect.objectContaining({ mimeType: 'image/png', fileName: 'new.png' }),
				},
			},
		]);
	});

	test('Simplify off: the generation with every field, outputs with their location too', async () => {
		const service = new GenerationService(NO_TIMESTAMPS);
		service.serve();
		service.createDone('seed');
		const trigger = activeTrigger(
			triggerWorkflow({ events: ['done'], simplify: false }),
			apiKeyCredentials,
		);
		await trigger.poll();
		service.createDone('new');
		expect((await trigger.poll())?.[0][0].json).toEqual({
			id: 'new',
			status: 'done',
			format: 'slideshow',
			credits: 3,
			outputs: [{ id: 'm_new', path: '/uploads/new.png', location: '/uploads/new.png' }],
		});
	});

	test('list entries without outputs or format are read by id when they fire', async () => {
		const service = new GenerationService({
			timestamps: 'none',
			order: 'creation',
			outputsInList: false,
		});
		service.serve();
		service.createDone('seed');
		const trigger = activeTrigger(triggerWorkflow({ events: ['done'] }), apiKeyCredentials);
		await trigger.poll();
		service.createDone('bare');
		expect((await trigger.poll())?.[0][0].json).toMatchObject({
			id: 'bare',
			outputs: [{ path: '/uploads/bare.png' }],
		});
		expect(service.requests).toContain(`${GEN}/bare`);
	});

	test('manual mode (Fetch Test Event) returns the latest match and leaves the state alone', async () => {
		const service = new GenerationService(NO_TIMESTAMPS);
		service.serve();
		service.createDone('older');
		service.createDone('latest');
		const workflow = triggerWorkflow({ events: ['done'] });
		expect(ids(await poll(workflow, apiKeyCredentials, 'manual'))).toEqual(['latest']);
		expect(workflow.staticData).toEqual({});
		expect(await activeTrigger(workflow, apiKeyCredentials).poll()).toBeNull();
	});

	test('the OAuth2 credential works the same, token sent raw', async () => {
		const scope = nock(APP_URL, { reqheaders: { authorization: 'scapp_SECRETTOKEN_7c1e0b' } })
			.get(GEN)
			.query(true)
			.reply(200, []);
		expect(
			await activeTrigger(
				triggerWorkflow({ authentication: 'oAuth2', events: ['done'] }),
				oauth2Credentials,
			).poll(),
		).toBeNull();
		scope.done();
	});
});
