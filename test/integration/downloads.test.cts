/**
 * Downloads that go wrong after the headers, against a real HTTP server (nock cannot cut
 * a body half-way): Get Generation with Download Outputs, through WorkflowExecute.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import nock from 'nock';
import type { IncomingMessage, ServerResponse } from 'node:http';

import {
	ACTION_NODE_TYPE,
	activeTrigger,
	runChain,
	START_NODE_TYPE,
	triggerWorkflow,
} from '../helpers/harness.cjs';
import { clockNow } from '../helpers/clock.cjs';
import { localServer, type LocalServer } from '../helpers/localServer.cjs';

const KEY = 'sk_download_test_key';
const FILE = Buffer.alloc(256 * 1024, 7);

/** The instance: one generation whose output is /uploads/out.bin, served by `serveFile`. */
async function instance(
	serveFile: (res: ServerResponse, attempt: number) => void,
): Promise<LocalServer & { fileRequests: () => number }> {
	let attempts = 0;
	const server = await localServer((req: IncomingMessage, res: ServerResponse) => {
		if (req.url?.startsWith('/api/public/v1/studio/generations/gen_1')) {
			res.writeHead(200, { 'Content-Type': 'application/json' });
			return res.end(
				JSON.stringify({
					id: 'gen_1',
					status: 'done',
					outputs: [{ id: 'med_1', path: '/uploads/out.bin' }],
				}),
			);
		}
		if (req.url === '/uploads/out.bin') return serveFile(res, ++attempts);
		res.writeHead(404).end();
	});
	return { ...server, fileRequests: () => attempts };
}

const sendWhole = (res: ServerResponse) => {
	res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': FILE.length });
	res.end(FILE);
};
/** Headers and the first quarter, then the connection drops. */
const cutHalfway = (res: ServerResponse) => {
	res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': FILE.length });
	res.write(FILE.subarray(0, FILE.length / 4), () => res.socket?.destroy());
};

/** Headers and the first quarter, then nothing, the connection left open (a stalled file server). */
const stallHalfway = (res: ServerResponse) => {
	res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': FILE.length });
	res.write(FILE.subarray(0, FILE.length / 4));
};
/** The whole file, slowly: a piece every 300 ms (never silent for as long as the Timeout). */
const sendSlowly = (res: ServerResponse) => {
	res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': FILE.length });
	const pieces = 8;
	const size = FILE.length / pieces;
	const next = (index: number): void => {
		if (index === pieces) {
			res.end();
			return;
		}
		res.write(FILE.subarray(index * size, (index + 1) * size));
		setTimeout(() => next(index + 1), 300);
	};
	next(0);
};

async function getGeneration(url: string, requestOptions: IDataObject = {}) {
	const parameters = {
		resource: 'studio',
		operation: 'getGeneration',
		generationId: { __rl: true, mode: 'id', value: 'gen_1' },
		downloadOutputs: true,
		requestOptions,
	};
	return await runChain(
		[
			{ name: 'Start', type: START_NODE_TYPE },
			{
				name: 'Node',
				type: ACTION_NODE_TYPE,
				parameters: parameters as INodeParameters,
				credentials: { socialContentApi: { id: '1', name: 'c' } },
			},
		],
		{
			credentials: { socialContentApi: { instanceUrl: url, apiKey: KEY } },
			settings: { timezone: 'UTC' },
		},
	);
}

let server: (LocalServer & { fileRequests: () => number }) | undefined;
beforeAll(() => nock.enableNetConnect('127.0.0.1'));
afterEach(async () => await server?.close());
afterAll(() => nock.restore());

describe('a download that goes wrong after its headers', () => {
	test('cut once half-way: tried again, the whole file arrives', async () => {
		server = await instance((res, attempt) => (attempt === 1 ? cutHalfway(res) : sendWhole(res)));
		const result = await getGeneration(server.url);
		expect(result.error).toBeUndefined();
		const [item] = result.output('Node');
		expect(item.binary?.output_0).toMatchObject({ mimeType: 'application/octet-stream' });
		expect(Buffer.from(item.binary?.output_0.data ?? '', 'base64').equals(FILE)).toBe(true);
		expect(server.fileRequests()).toBe(2);
	});

	test('cut every time: a network error that says so, after 3 tries; no file in the output', async () => {
		server = await instance((res) => cutHalfway(res));
		const result = await getGeneration(server.url);
		expect(result.error?.message).toMatch(
			/^The download of \/uploads\/out\.bin from 127\.0\.0\.1:\d+ broke off before its end$/,
		);
		expect((result.error as { description?: string }).description).toContain(
			'It was tried 3 times.',
		);
		expect(server.fileRequests()).toBe(3);
	});

	test('stalled once after its headers: ended after the Timeout of silence, tried again, the whole file arrives', async () => {
		server = await instance((res, attempt) => (attempt === 1 ? stallHalfway(res) : sendWhole(res)));
		const result = await getGeneration(server.url, { timeout: 1 });
		expect(result.error).toBeUndefined();
		expect(
			Buffer.from(result.output('Node')[0].binary?.output_0.data ?? '', 'base64').equals(FILE),
		).toBe(true);
		expect(server.fileRequests()).toBe(2);
	}, 60_000);

	test('stalled every time: a network error that names the silence, after 3 tries; no file in the output', async () => {
		server = await instance((res) => stallHalfway(res));
		const result = await getGeneration(server.url, { timeout: 1 });
		expect(result.error?.message).toMatch(
			/^The download of \/uploads\/out\.bin from 127\.0\.0\.1:\d+ stalled: no data came for 1 s \(the Timeout\)$/,
		);
		expect((result.error as { description?: string }).description).toContain(
			'It was tried 3 times. The file server stopped sending',
		);
		expect(server.fileRequests()).toBe(3);
	}, 60_000);

	test('slow but moving (2.4 s in all, a piece every 0.3 s) is never cut by a Timeout of 1 s', async () => {
		server = await instance((res) => sendSlowly(res));
		const result = await getGeneration(server.url, { timeout: 1 });
		expect(result.error).toBeUndefined();
		expect(
			Buffer.from(result.output('Node')[0].binary?.output_0.data ?? '', 'base64').equals(FILE),
		).toBe(true);
		expect(server.fileRequests()).toBe(1);
	}, 60_000);
});

describe('the trigger, when an output file stalls', () => {
	test('the poll ends within its budget (the silence is cut at the time it has left); the generation is carried, then fires once, with its file', async () => {
		let listed: IDataObject[] = [];
		let stall = true;
		const local = await localServer((req: IncomingMessage, res: ServerResponse) => {
			const json = (body: unknown) =>
				res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
			if (req.url?.startsWith('/api/public/v1/agents/ping'))
				return json({ ok: true, organization: 'org_1', tools: [] });
			if (req.url?.startsWith('/api/public/v1/studio/generations/gen_1')) return json(listed[0]);
			if (req.url?.startsWith('/api/public/v1/studio/generations')) return json(listed);
			if (req.url === '/uploads/out.bin') return stall ? stallHalfway(res) : sendWhole(res);
			res.writeHead(404).end();
		});
		server = { ...local, fileRequests: () => 0 };
		const credentials = { socialContentApi: { instanceUrl: local.url, apiKey: KEY } };
		// A real socket's silence takes real time: a poll given 5 s (ours: 4 s) instead of 20.
		const trigger = activeTrigger(
			triggerWorkflow({ events: ['done'], downloadOutputs: true }),
			credentials,
			'activate',
			5000,
		);
		expect(await trigger.poll()).toBeNull(); // the baseline: nothing yet
		listed = [
			{
				id: 'gen_1',
				status: 'done',
				format: 'slideshow',
				outputs: [{ id: 'med_1', path: '/uploads/out.bin' }],
			},
		];
		const started = clockNow();
		expect(await trigger.poll()).toBeNull(); // the file stalls: carried, not fired, not hung
		const pollMs = clockNow() - started;
		expect(pollMs).toBeGreaterThanOrEqual(4000 - 100); // it did wait for the file, within the budget
		expect(pollMs).toBeLessThan(4000 + 3000); // the budget, plus the short timeout of what it had started
		stall = false;
		const fired = (await trigger.poll())?.[0] ?? [];
		expect(fired.map((item) => item.json.id)).toEqual(['gen_1']);
		expect(Buffer.from(fired[0].binary?.output_0.data ?? '', 'base64').equals(FILE)).toBe(true);
		expect(await trigger.poll()).toBeNull();
	}, 120_000);
});
