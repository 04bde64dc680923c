/**
 * Downloads that go wrong after the headers, against a real HTTP server (nock cannot cut
 * a body half-way): Get Generation with Download Outputs, through WorkflowExecute.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import nock from 'nock';
import type { IncomingMessage, ServerResponse } from 'node:http';

import { ACTION_NODE_TYPE, runChain, START_NODE_TYPE } from '../helpers/harness';
import { localServer, type LocalServer } from '../helpers/localServer';

const KEY = 'sk_download_test_key';
const FILE = Buffer.alloc(256 * 1024, 7);

/** The instance: one generation whose output is /uploads/out.bin, served by `serveFile`. */
async function instance(serveFile: (res: ServerResponse, attempt: number) => void): Promise<LocalServer & { fileRequests: () => number }> {
	let attempts = 0;
	const server = await localServer((req: IncomingMessage, res: ServerResponse) => {
		if (req.url?.startsWith('/api/public/v1/studio/generations/gen_1')) {
			res.writeHead(200, { 'Content-Type': 'application/json' });
			return res.end(JSON.stringify({ id: 'gen_1', status: 'done', outputs: [{ id: 'med_1', path: '/uploads/out.bin' }] }));
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

async function getGeneration(url: string, requestOptions: IDataObject = {}) {
	const parameters = { resource: 'studio', operation: 'getGeneration', generationId: { __rl: true, mode: 'id', value: 'gen_1' }, downloadOutputs: true, requestOptions };
	return await runChain(
		[
			{ name: 'Start', type: START_NODE_TYPE },
			{ name: 'Node', type: ACTION_NODE_TYPE, parameters: parameters as INodeParameters, credentials: { socialContentApi: { id: '1', name: 'c' } } },
		],
		{ credentials: { socialContentApi: { instanceUrl: url, apiKey: KEY } }, settings: { timezone: 'UTC' } },
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
		expect(result.error?.message).toMatch(/^The download of \/uploads\/out\.bin from 127\.0\.0\.1:\d+ broke off before its end$/);
		expect((result.error as { description?: string }).description).toContain('It was tried 3 times.');
		expect(server.fileRequests()).toBe(3);
	});
});
