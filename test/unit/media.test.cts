import type { IDataObject } from 'n8n-workflow';
import {
	API_PATH,
	api,
	NODE,
	runAction,
	APP_URL,
	apiKeyCredentials,
	OAUTH_TOKEN,
	oauth2Credentials,
} from '../helpers/fixtures.cjs';
import { runChain, START_NODE_TYPE, ACTION_NODE_TYPE } from '../helpers/harness.cjs';
import nock from 'nock';
import { notPublicReason } from '../../nodes/shared/publicAddress';
import { MAX_PAGES } from '../../nodes/shared/paging';

const png = Buffer.from('89504e470d0a1a0a-fake-png', 'utf8');

/** Start → Media Upload, with one input item carrying the given binary fields. */
async function upload(
	binary: IDataObject,
	parameters: IDataObject = {},
	authentication: 'apiKey' | 'oAuth2' = 'apiKey',
) {
	return await runChain(
		[
			{ name: 'Start', type: START_NODE_TYPE },
			{
				name: NODE,
				type: ACTION_NODE_TYPE,
				parameters: { authentication, resource: 'media', operation: 'upload', ...parameters },
				credentials:
					authentication === 'apiKey'
						? { socialContentApi: { id: '1', name: 'c' } }
						: { socialContentOAuth2Api: { id: '2', name: 'o' } },
			},
		],
		{
			credentials: authentication === 'apiKey' ? apiKeyCredentials : oauth2Credentials,
			input: [{ json: {}, binary: binary as never }],
		},
	);
}

describe('Media → Upload', () => {
	test('POST /upload, multipart with the file in field "file"; returns id and path', async () => {
		let received = '';
		let contentType = '';
		const scope = api()
			.post(`${API_PATH}/upload`, (body: string) => {
				received = body;
				return true;
			})
			.reply(function () {
				contentType = String(this.req.headers['content-type']);
				return [200, { id: 'med_1', path: '/uploads/photo.png' }];
			});
		const result = await upload(
			{ photo: { data: png.toString('base64'), mimeType: 'image/png', fileName: 'photo.png' } },
			{ binaryPropertyName: 'photo' },
		);
		expect(result.error).toBeUndefined();
		expect(result.output(NODE)).toEqual([
			{ json: { id: 'med_1', path: '/uploads/photo.png' }, pairedItem: { item: 0 } },
		]);
		expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
		expect(received).toContain('name="file"; filename="photo.png"');
		expect(received).toContain('Content-Type: image/png');
		expect(received).toContain(png.toString('utf8'));
		scope.done();
	});

	test("with OAuth2 too: the multipart body survives n8n's OAuth2 signing, token raw", async () => {
		let received = '';
		const scope = nock(APP_URL, { reqheaders: { authorization: OAUTH_TOKEN } })
			.post(`${API_PATH}/upload`, (body: string) => {
				received = body;
				return true;
			})
			.reply(200, { id: 'med_9', path: '/uploads/x.png' });
		const result = await upload(
			{ data: { data: png.toString('base64'), mimeType: 'image/png', fileName: 'x.png' } },
			{},
			'oAuth2',
		);
		expect(result.output(NODE)[0].json).toEqual({ id: 'med_9', path: '/uploads/x.png' });
		expect(received).toContain('filename="x.png"');
		scope.done();
	});

	test('a missing binary property names it and the ones that exist', async () => {
		const result = await upload(
			{ photo: { data: png.toString('base64'), mimeType: 'image/png' } },
			{ binaryPropertyName: 'data' },
		);
		expect(result.error?.message).toBe('The input item has no binary field "data"');
		expect((result.error as { description?: string }).description).toBe(
			'Its binary fields are: photo. Set "Input Binary Field" to one of them.',
		);
	});

	test('no binary data at all', async () => {
		const result = await runAction({
			resource: 'media',
			operation: 'upload',
			binaryPropertyName: 'data',
		});
		expect(result.error?.message).toBe('The input item has no binary field "data"');
	});
});

describe('Media → Import From URL', () => {
	test('POST /upload-from-url with the url', async () => {
		const scope = api()
			.post(`${API_PATH}/upload-from-url`, { url: 'https://example.com/a.png' })
			.reply(200, { id: 'med_2', path: '/uploads/a.png' });
		const result = await runAction({
			resource: 'media',
			operation: 'importFromUrl',
			url: 'https://example.com/a.png',
		});
		expect(result.output(NODE)[0].json).toEqual({ id: 'med_2', path: '/uploads/a.png' });
		scope.done();
	});

	test.each(['ftp://example.com/a.png', 'file:///etc/passwd', 'not a url', 'javascript:alert(1)'])(
		'%s is refused before sending',
		async (url) => {
			const result = await runAction({ resource: 'media', operation: 'importFromUrl', url });
			expect(result.error?.message).toBe(`"URL" must be an http or https address, not "${url}"`);
		},
	);
});

describe('Media → Get Many', () => {
	test("Simplify (the default): each file's location once, as path; off: as the service sent it", async () => {
		const files = [
			{ id: 'a', name: 'a.png', url: '/uploads/a.png', location: '/uploads/a.png' },
			{ id: 'b', path: '/uploads/b.mp4' },
		];
		api().get(`${API_PATH}/media`).times(2).reply(200, files);
		const simplified = await runAction({ resource: 'media', operation: 'list', returnAll: true });
		expect(simplified.output(NODE).map((item) => item.json)).toEqual([
			{ id: 'a', name: 'a.png', path: '/uploads/a.png' },
			{ id: 'b', path: '/uploads/b.mp4' },
		]);
		const raw = await runAction({
			resource: 'media',
			operation: 'list',
			returnAll: true,
			simplify: false,
		});
		expect(raw.output(NODE).map((item) => item.json)).toEqual(files);
	});

	test('GET /media, a plain array', async () => {
		const scope = api()
			.get(`${API_PATH}/media`)
			.reply(200, [{ id: 'a' }, { id: 'b' }]);
		const result = await runAction({ resource: 'media', operation: 'list', returnAll: true });
		expect(result.output(NODE).map((item) => item.json)).toEqual([{ id: 'a' }, { id: 'b' }]);
		scope.done();
	});

	/** GET /media answering `times` pages, each as `answer` makes it from the query (page, cursor). */
	const servePages = (times: number, answer: (query: URLSearchParams) => object) =>
		api()
			.get(`${API_PATH}/media`)
			.query(true)
			.times(times)
			.reply(200, (uri) => answer(new URL(uri, APP_URL).searchParams));

	test('a list that never ends is cut at the page guard, and the run says so (never a silent cut)', async () => {
		let page = 0;
		servePages(MAX_PAGES + 1, () => ({ results: [{ id: `file ${++page}` }], hasMore: true }));
		const result = await runAction({ resource: 'media', operation: 'list', returnAll: true });
		expect(result.output(NODE)).toHaveLength(MAX_PAGES);
		expect(page).toBe(MAX_PAGES);
		const hints = result.run.data.resultData.runData[NODE][0].hints ?? [];
		expect(hints.map((hint) => hint.message)).toEqual([
			`The list stopped after ${MAX_PAGES.toLocaleString('en-US')} pages (${MAX_PAGES.toLocaleString('en-US')} results) although the service said there were more: the output is not the whole list. Turn off Return All and set a Limit to read a known number.`,
		]);
		nock.cleanAll();
	}, 120_000);

	test('a list that says how many pages it has is read to its end, past the guard for lists that do not', async () => {
		const pages = MAX_PAGES + 7;
		servePages(pages, (query) => ({ results: [{ id: `file ${query.get('page') ?? 1}` }], pages }));
		const result = await runAction({ resource: 'media', operation: 'list', returnAll: true });
		expect(result.output(NODE).map((item) => item.json.id)).toEqual(
			Array.from({ length: pages }, (_, index) => `file ${index + 1}`),
		);
		expect(result.run.data.resultData.runData[NODE][0].hints ?? []).toEqual([]);
	}, 120_000);

	const hintsOf = (result: Awaited<ReturnType<typeof runAction>>) =>
		(result.run.data.resultData.runData[NODE][0].hints ?? []).map((hint) => hint.message);

	test('a cursor that loops (A → B → A) stops at the first cursor given again, with a notice (#68)', async () => {
		let served = 0;
		// Each answer new, its cursor going round: none → A → B → A …
		servePages(7, (query) => ({
			results: [{ id: `file ${++served}` }],
			nextCursor: query.get('cursor') === 'A' ? 'B' : 'A',
		}));
		const result = await runAction({ resource: 'media', operation: 'list', returnAll: true });
		expect(result.output(NODE).map((item) => item.json.id)).toEqual(['file 1', 'file 2', 'file 3']);
		expect(served).toBe(3);
		expect(hintsOf(result)).toEqual([
			"The list stopped at page 4 (3 results): the service gave a cursor it had already given, so reading on would only repeat what was read. The output holds each page once; if the list looks short, the service's paging is at fault.",
		]);
		nock.cleanAll();
	});

	test('an answer claiming totalPages 1e9 whose pages come round again stops at the first page sent again, with a notice (#68)', async () => {
		let served = 0;
		servePages(7, (query) => {
			served++;
			const page = Number(query.get('page') ?? 1);
			return { results: [{ id: `file ${((page - 1) % 3) + 1}` }], totalPages: 1e9 };
		});
		const result = await runAction({ resource: 'media', operation: 'list', returnAll: true });
		expect(result.output(NODE).map((item) => item.json.id)).toEqual(['file 1', 'file 2', 'file 3']);
		expect(served).toBe(4);
		expect(hintsOf(result)).toEqual([
			expect.stringMatching(
				/^The list stopped at page 4 \(3 results\): the service gave a page it had already given/,
			),
		]);
		nock.cleanAll();
	});

	// Paged and wrapped answers (the spec does not show them): test/unit/shapeGuesses.test.cts.
});

describe('Import From URL: private addresses in every spelling are refused before sending (#40)', () => {
	test.each([
		['http://[64:ff9b::7f00:1]/a.png', 'a loopback address (127.0.0.1)'],
		['http://[::ffff:0:7f00:1]/a.png', 'a loopback address (127.0.0.1)'],
		['http://[2002:7f00:1::]/a.png', 'a loopback address (127.0.0.1)'],
		['http://[2002:a00:1::]/a.png', 'a private address (10.0.0.1)'],
		['http://[fec0::1]/a.png', 'a site-local address [fec0::1]'],
		['http://[ff02::1]/a.png', 'a multicast address [ff02::1]'],
		['http://198.18.0.1/a.png', 'a benchmarking address (198.18.0.1)'],
		['http://localhost.localdomain/a.png', 'a name for this machine'],
		['http://ip6-localhost/a.png', 'a name for this machine'],
		['http://metadata.google.internal/computeMetadata/v1/', "cloud's metadata"],
		['http://printer.local/a.png', 'a name for this machine, its network'],
		// Names that answer the address they carry, or always this machine; cluster and cloud names (#50).
		['http://127.0.0.1.nip.io/a.png', 'a loopback address (127.0.0.1), written in a name'],
		['http://169.254.169.254.sslip.io/latest/', 'a link-local address (169.254.169.254)'],
		['http://app-10-0-0-1.sslip.io/a.png', 'a private address (10.0.0.1)'],
		['http://7f000001.nip.io/a.png', 'a loopback address (127.0.0.1)'],
		['http://localtest.me/a.png', 'a name that always means this machine'],
		['http://files.lvh.me/a.png', 'a name that always means this machine'],
		['http://kubernetes.default.svc/api', "a name inside a cluster's own network"],
		['http://web.shop.svc.cluster.local/a.png', 'a name for this machine, its network'],
		['http://instance-data/latest/meta-data/', "cloud's metadata"],
		['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/a.png', 'a loopback address (127.0.0.1)'],
		['http://[2001:db8::200:5efe:a00:1]/a.png', 'a private address (10.0.0.1)'],
		// Names that resolve to private addresses, as written (#68).
		['http://--1.sslip.io/a.png', 'a loopback address [::1], written in a name'],
		[
			'http://7f000001.c0a80001.rbndr.us/a.png',
			'a loopback address (127.0.0.1), written in a name',
		],
		[
			'http://08080808.c0a80001.rbndr.us/a.png',
			'a private address (192.168.0.1), written in a name',
		],
		['http://metadata.tencentyun.com/latest/meta-data/', "cloud's metadata"],
		['http://redis/a.png', 'a name without a domain, which only a local network answers (redis)'],
		['http://files.localhost.direct/a.png', 'a name that always means this machine'],
		['http://nas.lan/a.png', 'a name for this machine, its network'],
		['http://minio.storage.corp/a.png', 'a name for this machine, its network'],
	])('%s: %s', (url, reason) => {
		expect(notPublicReason(new URL(url))).toContain(reason);
	});

	test.each([
		'https://example.com/a.png',
		'http://8.8.8.8/a.png',
		'http://198.20.0.1/a.png',
		'http://[2606:4700::1111]/a.png',
		'http://[2002:808:808::]/a.png',
		'http://internal.example.com/a.png',
		'http://8.8.8.8.nip.io/a.png',
		'http://svc.example.com/a.png',
		'http://kubernetes.io/a.png',
	])('%s: may be public (left to the service)', (url) => {
		expect(notPublicReason(new URL(url))).toBeUndefined();
	});

	test('through the node: refused with the reason, and nothing is sent', async () => {
		const result = await runAction({
			resource: 'media',
			operation: 'importFromUrl',
			url: 'http://[64:ff9b::a9fe:a9fe]/latest/meta-data/',
		});
		expect(result.error?.message).toBe(
			'"URL" is not a public address: it points to a link-local address (169.254.169.254)',
		);
		expect(nock.pendingMocks()).toEqual([]);
	});
});
