import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { MAX_REMEMBERED, SLACK_MS } from '../../nodes/SocialContentTrigger/generationState';
import { API_PATH, APP_URL, api, apiKeyCredentials } from '../helpers/fixtures';
import { poll, triggerWorkflow } from '../helpers/harness';

const GEN = `${API_PATH}/studio/generations`;

/** A stand-in for the service's generation list, filtered by status like the real one. */
class Generations {
	list: IDataObject[] = [];
	requests: string[] = [];
	failNext = 0;
	failStatus = 500;
	clock = Date.UTC(2026, 10, 22, 9, 0, 0);
	pageSize: number | undefined;

	finish(id: string, status: 'done' | 'failed' = 'done', format = 'slideshow', at = (this.clock += 1000)) {
		this.list.unshift({
			id,
			status,
			format,
			credits: 3,
			finishedAt: new Date(at).toISOString(),
			outputs: status === 'done' ? [{ id: `m_${id}`, path: `/uploads/${id}.png` }] : [],
		});
	}

	serve() {
		const self = this;
		api()
			.get(GEN)
			.query(true)
			.reply(function (uri) {
				self.requests.push(uri);
				if (self.failNext > 0) {
					self.failNext--;
					return [self.failStatus, self.failStatus === 429 ? { code: 'RATE_LIMITED', bucket: 'b', limit: 1, retryAfter: 999 } : {}];
				}
				const query = new URL(uri, APP_URL).searchParams;
				const status = query.get('status');
				const rows = status ? self.list.filter((g) => g.status === status) : self.list;
				if (!self.pageSize) return [200, rows];
				const page = Number(query.get('page') ?? 1);
				const pages = Math.max(1, Math.ceil(rows.length / self.pageSize));
				return [200, { generations: rows.slice((page - 1) * self.pageSize, page * self.pageSize), page, pages }];
			})
			.persist();
		api()
			.get(new RegExp(`^${GEN}/[^/?]+$`))
			.reply(function (uri) {
				self.requests.push(uri);
				const id = decodeURIComponent(uri.split('/').pop() ?? '');
				const found = self.list.find((g) => g.id === id);
				return found ? [200, found] : [404, {}];
			})
			.persist();
	}
}

const ids = (result: Awaited<ReturnType<typeof poll>>) => (result?.[0] ?? []).map((item) => item.json.id);

let service: Generations;
beforeEach(() => {
	service = new Generations();
	service.serve();
});

describe('Social Content Trigger', () => {
	test('first activation records a baseline and fires for nothing already done', async () => {
		service.finish('old_1');
		service.finish('old_2');
		const workflow = triggerWorkflow({ events: ['done'] });
		expect(await poll(workflow, apiKeyCredentials)).toBeNull();
		expect(await poll(workflow, apiKeyCredentials)).toBeNull();
		expect(service.requests).toEqual([`${GEN}?status=done`, `${GEN}?status=done`]);
	});

	test('a new done generation fires exactly once, with its outputs; repeated polls stay silent', async () => {
		service.finish('old');
		const workflow = triggerWorkflow({ events: ['done'] });
		await poll(workflow, apiKeyCredentials);
		service.finish('new');
		const fired = await poll(workflow, apiKeyCredentials);
		expect(fired?.[0]).toEqual([
			{
				json: expect.objectContaining({
					id: 'new',
					status: 'done',
					format: 'slideshow',
					credits: 3,
					outputs: [{ id: 'm_new', path: '/uploads/new.png', location: '/uploads/new.png' }],
				}),
			},
		]);
		expect(await poll(workflow, apiKeyCredentials)).toBeNull();
		expect(await poll(workflow, apiKeyCredentials)).toBeNull();
		expect(service.requests).toHaveLength(4);
	});

	test('two generations finishing between polls come out oldest first', async () => {
		const workflow = triggerWorkflow({ events: ['done'] });
		await poll(workflow, apiKeyCredentials);
		service.finish('first');
		service.finish('second');
		expect(ids(await poll(workflow, apiKeyCredentials))).toEqual(['first', 'second']);
	});

	test.each([
		['a 5xx', 500],
		['a 429 past the wait cap', 429],
		['an HTML page', 0],
	])('a failed poll (%s) does not advance the state; the next good poll emits what was missed', async (_name, status) => {
		const workflow = triggerWorkflow({ events: ['done'] });
		await poll(workflow, apiKeyCredentials);
		service.finish('missed_1');
		if (status === 0) {
			nock.cleanAll();
			api().get(GEN).query(true).reply(200, '<html>login</html>', { 'Content-Type': 'text/html' });
		} else {
			service.failNext = status === 429 ? 1 : 3;
			service.failStatus = status;
		}
		const before = JSON.stringify(workflow.staticData);
		await expect(poll(workflow, apiKeyCredentials)).rejects.toThrow();
		expect(JSON.stringify(workflow.staticData)).toBe(before);
		if (status === 0) service.serve();
		service.finish('missed_2');
		expect(ids(await poll(workflow, apiKeyCredentials))).toEqual(['missed_1', 'missed_2']);
		expect(await poll(workflow, apiKeyCredentials)).toBeNull();
	});

	test('a download failure also leaves the state alone', async () => {
		const workflow = triggerWorkflow({ events: ['done'], downloadOutputs: true });
		await poll(workflow, apiKeyCredentials);
		service.finish('pic');
		api().get('/uploads/pic.png').times(3).reply(500, {});
		await expect(poll(workflow, apiKeyCredentials)).rejects.toThrow(/500/);
		api().get('/uploads/pic.png').reply(200, Buffer.from('png'), { 'Content-Type': 'image/png' });
		const fired = await poll(workflow, apiKeyCredentials);
		expect(fired?.[0][0].binary?.output_0).toMatchObject({ mimeType: 'image/png', fileName: 'pic.png' });
	});

	test('the state survives a restart (a new workflow from the saved static data)', async () => {
		const first = triggerWorkflow({ events: ['done'] });
		await poll(first, apiKeyCredentials);
		service.finish('a');
		expect(ids(await poll(first, apiKeyCredentials))).toEqual(['a']);
		const saved = JSON.parse(JSON.stringify(first.staticData)) as IDataObject;
		service.finish('b');
		const restarted = triggerWorkflow({ events: ['done'] }, saved);
		expect(ids(await poll(restarted, apiKeyCredentials))).toEqual(['b']);
		expect(await poll(restarted, apiKeyCredentials)).toBeNull();
	});

	test('Generation Failed as an option; with both events one unfiltered request per poll', async () => {
		const workflow = triggerWorkflow({ events: ['done', 'failed'] });
		await poll(workflow, apiKeyCredentials);
		service.finish('ok', 'done');
		service.finish('broke', 'failed');
		const fired = await poll(workflow, apiKeyCredentials);
		expect(fired?.[0].map((item) => [item.json.id, item.json.status])).toEqual([
			['ok', 'done'],
			['broke', 'failed'],
		]);
		expect(service.requests.filter((uri) => uri.startsWith(`${GEN}?`) || uri === GEN).at(-1)).toBe(GEN);
	});

	test('only failed: asks the service for status=failed', async () => {
		const workflow = triggerWorkflow({ events: ['failed'] });
		await poll(workflow, apiKeyCredentials);
		service.finish('ok', 'done');
		service.finish('broke', 'failed');
		expect(ids(await poll(workflow, apiKeyCredentials))).toEqual(['broke']);
		expect(service.requests.filter((uri) => uri.startsWith(`${GEN}?`)).at(-1)).toBe(`${GEN}?status=failed`);
	});

	test('the format filter', async () => {
		const workflow = triggerWorkflow({ events: ['done'], formats: ['voiceover'] });
		await poll(workflow, apiKeyCredentials);
		service.finish('slides', 'done', 'slideshow');
		service.finish('voice', 'done', 'voiceover');
		expect(ids(await poll(workflow, apiKeyCredentials))).toEqual(['voice']);
		expect(await poll(workflow, apiKeyCredentials)).toBeNull();
	});

	test('list entries without outputs or format are read one by one when they fire', async () => {
		nock.cleanAll();
		const workflow = triggerWorkflow({ events: ['done'], formats: ['voiceover'] });
		api().get(GEN).query(true).reply(200, []);
		await poll(workflow, apiKeyCredentials);
		api()
			.get(GEN)
			.query(true)
			.reply(200, [{ id: 'bare', status: 'done', finishedAt: '2026-11-22T10:00:00Z' }])
			.get(`${GEN}/bare`)
			.reply(200, { id: 'bare', status: 'done', format: 'voiceover', outputs: ['/a.mp3'] });
		const fired = await poll(workflow, apiKeyCredentials);
		expect(fired?.[0][0].json).toMatchObject({ id: 'bare', format: 'voiceover', outputs: [{ location: '/a.mp3' }] });
	});

	test('manual mode (Fetch Test Event) returns the latest match and leaves the state alone', async () => {
		service.finish('older');
		service.finish('latest');
		const workflow = triggerWorkflow({ events: ['done'] });
		const fetched = await poll(workflow, apiKeyCredentials, 'manual');
		expect(ids(fetched)).toEqual(['latest']);
		expect(JSON.stringify(workflow.staticData)).not.toContain('generations');
		// Activation afterwards still starts from a baseline: nothing old fires.
		expect(await poll(workflow, apiKeyCredentials)).toBeNull();
	});

	test('paged lists: more pages are read only while every entry is new', async () => {
		service.pageSize = 2;
		service.finish('old');
		const workflow = triggerWorkflow({ events: ['done'] });
		await poll(workflow, apiKeyCredentials);
		service.finish('n1');
		service.finish('n2');
		service.finish('n3');
		expect(ids(await poll(workflow, apiKeyCredentials))).toEqual(['n1', 'n2', 'n3']);
		expect(service.requests.slice(1)).toEqual([`${GEN}?status=done`, `${GEN}?status=done&page=2`]);
		expect(await poll(workflow, apiKeyCredentials)).toBeNull();
		expect(service.requests).toHaveLength(4);
	});

	test('the OAuth2 credential works the same, token sent raw', async () => {
		nock.cleanAll();
		const scope = nock(APP_URL, { reqheaders: { authorization: 'scapp_SECRETTOKEN_7c1e0b' } }).get(GEN).query(true).reply(200, []);
		const workflow = triggerWorkflow({ authentication: 'oAuth2', events: ['done'] });
		const { oauth2Credentials } = await import('../helpers/fixtures');
		expect(await poll(workflow, oauth2Credentials)).toBeNull();
		scope.done();
	});

	test('state stays bounded: 100,000 generations over 1,000 polls, none lost or repeated', async () => {
		nock.cleanAll();
		const workflow = triggerWorkflow({ events: ['done'] });
		let clock = Date.UTC(2026, 0, 1);
		let batch: IDataObject[] = [];
		api()
			.get(GEN)
			.query(true)
			.reply(() => [200, batch])
			.persist();
		await poll(workflow, apiKeyCredentials);
		const fired = new Set<string>();
		let duplicates = 0;
		let largest = 0;
		for (let round = 0; round < 1000; round++) {
			// The service lists the newest 200: this round's 100 and the previous round's 100.
			const fresh = Array.from({ length: 100 }, (_, i) => ({
				id: `gen_${round * 100 + i}`,
				status: 'done',
				format: 'slideshow',
				finishedAt: new Date((clock += 600)).toISOString(),
				outputs: [{ id: 'm', path: '/m.png' }],
			})).reverse();
			batch = [...fresh, ...batch.slice(0, 100)];
			for (const item of (await poll(workflow, apiKeyCredentials))?.[0] ?? []) {
				if (fired.has(String(item.json.id))) duplicates++;
				fired.add(String(item.json.id));
			}
			largest = Math.max(largest, JSON.stringify(workflow.staticData).length);
		}
		expect(fired.size).toBe(100_000);
		expect(duplicates).toBe(0);
		expect(largest).toBeLessThan(64 * 1024);
		// eslint-disable-next-line no-console
		console.info(`trigger state after 100,000 generations: ${JSON.stringify(workflow.staticData).length} bytes (largest ${largest}); window ${SLACK_MS / 60000} min, cap ${MAX_REMEMBERED} ids`);
	}, 120_000);

	test('bursts of 1,000 at the same instant, failed polls and restarts: none lost, none repeated', async () => {
		nock.cleanAll();
		let list: IDataObject[] = [];
		let failNext = false;
		api()
			.get(GEN)
			.query(true)
			.reply(() => {
				if (failNext) {
					failNext = false;
					return [503, {}];
				}
				return [200, list];
			})
			.persist();
		let workflow = triggerWorkflow({ events: ['done'] });
		await poll(workflow, apiKeyCredentials);
		const fired = new Map<string, number>();
		const record = (result: Awaited<ReturnType<typeof poll>>) => {
			for (const item of result?.[0] ?? []) fired.set(String(item.json.id), (fired.get(String(item.json.id)) ?? 0) + 1);
		};
		let at = Date.UTC(2026, 5, 1);
		for (let burst = 0; burst < 5; burst++) {
			at += 60_000;
			const finishedAt = new Date(at).toISOString();
			const fresh = Array.from({ length: 1000 }, (_, i) => ({ id: `b${burst}_${i}`, status: 'done', format: 'slideshow', finishedAt, outputs: [{ id: 'm', path: '/m' }] }));
			list = [...fresh, ...list].slice(0, 3000);
			if (burst % 2 === 0) {
				failNext = true;
				await expect(poll(workflow, apiKeyCredentials)).rejects.toThrow();
			}
			if (burst % 2 === 1) workflow = triggerWorkflow({ events: ['done'] }, JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject);
			record(await poll(workflow, apiKeyCredentials));
			record(await poll(workflow, apiKeyCredentials));
		}
		expect(fired.size).toBe(5000);
		expect([...fired.values()].filter((times) => times > 1)).toEqual([]);
	}, 60_000);
});

