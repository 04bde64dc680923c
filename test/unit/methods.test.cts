import type { INodeParameters } from 'n8n-workflow';

import { KNOWN_SETTINGS } from '../../nodes/SocialContent/actions/post/knownSettings';
import { SocialContent } from '../../nodes/SocialContent/SocialContent.node';
import { API_KEY, API_PATH, api, apiKeyCredentials, editorContext } from '../helpers/fixtures.cjs';
import { ACTION_NODE_TYPE, loadOptionsContextFor } from '../helpers/harness.cjs';
import { LIST_SHAPES } from '../helpers/shapeGuesses.cjs';

const node = new SocialContent();
/** A dropdown's load in a workflow whose time zone is Europe/Berlin. */
const context = () => editorContext({}, 'Europe/Berlin');

const channels = [
	{ id: 'ch_x', name: 'Acme', identifier: 'x' },
	{ id: 'ch_li', name: 'Acme Corp', identifier: 'linkedin' },
];

describe('dropdowns, loaded through the same transport', () => {
	test('getChannels: "Name · Network" → id, sorted, with the raw key', async () => {
		const scope = api()
			.get(`${API_PATH}/integrations`)
			.matchHeader('authorization', API_KEY)
			.reply(200, channels);
		const options = await node.methods.loadOptions.getChannels.call(context());
		expect(options).toEqual([
			{ name: 'Acme · X', value: 'ch_x' },
			{ name: 'Acme Corp · LinkedIn', value: 'ch_li' },
		]);
		scope.done();
	});

	test('searchChannels filters by name, network or id', async () => {
		api().get(`${API_PATH}/integrations`).reply(200, { integrations: channels });
		const found = await node.methods.listSearch.searchChannels.call(context(), 'linked');
		expect(found).toEqual({ results: [{ name: 'Acme Corp · LinkedIn', value: 'ch_li' }] });
	});

	test('searchFormats shows the credit price ("1 credit", "2 credits") and what each format needs', async () => {
		api()
			.get(`${API_PATH}/studio/formats`)
			.reply(200, [
				{
					id: 'wall_of_text',
					name: 'Wall of text',
					credits: 2,
					inputs: [{ name: 'hook', required: true }],
				},
				{ id: 'image_fast', name: 'Image (fast)', credits: 1, inputs: ['prompt'] },
				{ id: 'video_clip', name: 'Video clip' },
			]);
		const found = await node.methods.listSearch.searchFormats.call(context());
		expect(found.results).toEqual([
			{ name: 'Wall of text · 2 credits', value: 'wall_of_text', description: 'Needs: Hook' },
			{ name: 'Image (fast) · 1 credit', value: 'image_fast', description: 'Inputs: Prompt' },
			{ name: 'Video clip', value: 'video_clip' },
		]);
	});

	test('getFormats (for the trigger filter)', async () => {
		api()
			.get(`${API_PATH}/studio/formats`)
			.reply(200, { formats: [{ formatId: 'slideshow', price: 10 }] });
		expect(await node.methods.loadOptions.getFormats.call(context())).toEqual([
			{ name: 'slideshow · 10 credits', value: 'slideshow' },
		]);
	});

	test('a 401 while loading a dropdown: nothing to pick; the error gives the credential advice, which n8n shows on the field', async () => {
		api().get(`${API_PATH}/integrations`).reply(401, {});
		const loading = node.methods.loadOptions.getChannels.call(context());
		await expect(loading).rejects.toThrow(
			/^Could not load the list: The service rejected the API key: it is wrong, or was revoked\. Open the credential .* and paste a valid API key/,
		);
		await loading.catch((error: Error) => expect(JSON.stringify(error)).not.toContain(API_KEY));
	});

	test.each([
		'getChannels',
		'getPostChannels',
		'getFormats',
		'getMediaFiles',
		'getSettingTargets',
		'getSettingNames',
		'getListInputs',
	] as const)(
		'%s with an Instance URL that serves a web page: no entry to pick; the error says to fix the Instance URL',
		async (method) => {
			api().get(/.*/).times(3).reply(200, '<!doctype html><html><body>Login</body></html>', {
				'Content-Type': 'text/html',
			});
			const panel = loadOptionsContextFor(
				ACTION_NODE_TYPE,
				{
					authentication: 'apiKey',
					resource: 'post',
					operation: 'create',
					channels: ['ch_x'],
					format: { __rl: true, mode: 'list', value: 'slideshow' },
				},
				apiKeyCredentials,
				{ socialContentApi: { id: '1', name: 'c' } },
			);
			await expect(node.methods.loadOptions[method].call(panel)).rejects.toThrow(
				/^Could not load the list: The Instance URL serves a web page, not the API\. .*Set the Instance URL in the credential to the address of your instance/,
			);
		},
	);
});

test('searchPosts: a text of 32 characters shows whole, one of 33 is cut, line breaks as spaces', async () => {
	const whole = 'x'.repeat(30) + '\nz'; // 32 characters, a line break inside
	const cut = 'y'.repeat(33);
	api()
		.get(`${API_PATH}/posts`)
		.query(true)
		.reply(200, [
			{ id: 'p_32', content: whole, publishDate: '2026-12-01T09:00:00Z' },
			{ id: 'p_33', content: cut, publishDate: '2026-12-02T09:00:00Z' },
		]);
	const names = (await node.methods.listSearch.searchPosts.call(context())).results.map(
		(result) => String(result.name).split(' · ')[0],
	);
	expect(names).toEqual([`${'x'.repeat(30)} z`, `${'y'.repeat(31)}…`]);
});

describe('a list that cannot offer anything says why once', () => {
	test('Text Per Channel (a list built on the channel list): the reason, not wrapped twice', async () => {
		api().get(`${API_PATH}/integrations`).times(3).reply(200, '<!doctype html><p>Login</p>', {
			'Content-Type': 'text/html',
		});
		const loading = node.methods.loadOptions.getPostChannels.call(context());
		await expect(loading).rejects.toThrow(/^Could not load the list: (?!Could not load)/);
	});

	test('List Inputs → Input, a format the instance does not have: nothing to pick, and what to do', async () => {
		api()
			.get(`${API_PATH}/studio/formats`)
			.reply(200, [
				{ id: 'image_fast', name: 'Image (fast)', inputs: [{ name: 'prompt', type: 'string' }] },
			]);
		const panel = editorContext({
			resource: 'studio',
			operation: 'startGeneration',
			format: { __rl: true, mode: 'list', value: 'gone' },
		});
		await expect(node.methods.loadOptions.getListInputs.call(panel)).rejects.toThrow(
			'No format "gone" on this instance: choose one from the list',
		);
	});
});

describe('a new row is never marked "The value "" is not supported!": its value ("") is among the choices, which say what to do', () => {
	test.each([
		[
			'List Inputs, on a Studio node with no format yet (no request, no error)',
			'getListInputs',
			{ resource: 'studio', operation: 'startGeneration' },
			undefined,
			[
				{
					name: 'Choose a Format First',
					value: '',
					description: 'Pick the format above: the inputs of it that take a list appear here',
				},
			],
		],
		[
			'List Inputs, the format an expression the editor cannot work out (no request, no error)',
			'getListInputs',
			{
				resource: 'studio',
				operation: 'startGeneration',
				format: { __rl: true, mode: 'id', value: '={{ $json.format }}' },
			},
			undefined,
			[
				{
					name: 'Give the Input by Expression (the Format Is One)',
					value: '',
					description:
						"The format is an expression, so its lists are not known here: give the input's ID (e.g. captions) as an expression",
				},
			],
		],
		[
			'Media → From Media Library',
			'getMediaFiles',
			{ resource: 'post', operation: 'create' },
			() =>
				api()
					.get(`${API_PATH}/media`)
					.reply(200, [{ id: 'med_1', name: 'a.png', path: '/uploads/a.png' }]),
			[
				{ name: 'Choose a Media File', value: '' },
				{ name: 'a.png', value: 'med_1' },
			],
		],
		[
			'Media → From Media Library, the library empty',
			'getMediaFiles',
			{ resource: 'post', operation: 'create' },
			() => api().get(`${API_PATH}/media`).reply(200, []),
			[
				{
					name: 'The Media Library Is Empty',
					value: '',
					description: 'Upload a file with Media → Upload, or attach one another way',
				},
			],
		],
		[
			'Text Per Channel → Add Text for a Channel',
			'getPostChannels',
			{ resource: 'post', operation: 'create', channels: ['ch_x'] },
			() => api().get(`${API_PATH}/integrations`).reply(200, channels),
			[
				{ name: 'Choose a Channel', value: '' },
				{ name: 'Acme · X', value: 'ch_x' },
			],
		],
	] as const)('%s', async (_case, method, parameters, serve, choices) => {
		serve?.();
		const options = await node.methods.loadOptions[method].call(
			editorContext(structuredClone(parameters) as INodeParameters),
		);
		expect(options).toEqual(choices);
	});
});

describe('pickers for generations, posts, media files and setting targets', () => {
	test.each(Object.entries(LIST_SHAPES.shapes))(
		'searchGenerations: the first page, answering %s, labelled "format name · status · date in the workflow\'s zone · id"',
		async (_shape, wrap) => {
			const scope = api()
				.get(`${API_PATH}/studio/generations`)
				.reply(
					200,
					wrap(
						[
							{
								id: 'gen_1',
								status: 'DONE',
								formatId: 'image_fast',
								updatedAt: '2026-11-22T12:03:09Z',
							},
							{ id: 'gen_2', status: 'queued' },
						],
						'generations',
					) as object,
				)
				.get(`${API_PATH}/studio/formats`)
				.reply(200, [{ id: 'image_fast', name: 'Image (fast)', credits: 1 }]);
			const found = await node.methods.listSearch.searchGenerations.call(context(), 'image');
			expect(found.results).toEqual([
				{ name: 'Image (fast) · done · 22 Nov 2026 13:03 CET · gen_1', value: 'gen_1' },
			]);
			scope.done();
		},
	);

	test('searchGenerations: a format list that cannot be read leaves the format ids', async () => {
		api()
			.get(`${API_PATH}/studio/generations`)
			.reply(200, [{ id: 'gen_1', status: 'done', format: 'slideshow' }])
			.get(`${API_PATH}/studio/formats`)
			.reply(503, {});
		expect((await node.methods.listSearch.searchGenerations.call(context())).results).toEqual([
			{ name: 'slideshow · done · gen_1', value: 'gen_1' },
		]);
	});

	test('searchGenerations reads one page only, even when the service says there are more', async () => {
		const scope = api()
			.get(`${API_PATH}/studio/generations`)
			.reply(200, { generations: [{ id: 'gen_1', status: 'done' }], page: 1, pages: 40 })
			// The format names for the labels (none here): answered, so no read is left unmatched.
			.get(`${API_PATH}/studio/formats`)
			.reply(200, []);
		expect((await node.methods.listSearch.searchGenerations.call(context())).results).toEqual([
			{ name: 'done · gen_1', value: 'gen_1' },
		]);
		scope.done();
	});

	test.each([
		[
			'an array with content and publishDate',
			[
				{ id: 'p_2', content: 'Later post', publishDate: '2026-12-02T09:00:00Z' },
				{
					id: 'p_1',
					content: 'A long first post that goes well past forty characters',
					publishDate: '2026-12-01T09:00:00+01:00',
				},
			],
		],
		[
			'{ posts } with text and date',
			{
				posts: [
					{ id: 'p_2', text: 'Later post', date: '2026-12-02T09:00:00.000Z' },
					{
						postId: 'p_1',
						text: 'A long first post that goes well past forty characters',
						date: '2026-12-01T08:00:00Z',
					},
				],
			},
		],
	])('searchPosts: 30 days back to 90 ahead, soonest first, answering %s', async (_shape, body) => {
		let query: Record<string, string> = {};
		const scope = api()
			.get(`${API_PATH}/posts`)
			.query((given) => {
				query = given as Record<string, string>;
				return true;
			})
			.reply(200, body);
		const found = await node.methods.listSearch.searchPosts.call(context());
		expect(found.results).toEqual([
			// The text first (cut to 32 characters), then the date: what tells posts apart leads.
			{ name: 'A long first post that goes wel… · 1 Dec 2026 09:00 CET', value: 'p_1' },
			{ name: 'Later post · 2 Dec 2026 10:00 CET', value: 'p_2' },
		]);
		const days = (Date.parse(query.endDate) - Date.parse(query.startDate)) / 86_400_000;
		expect(Math.round(days)).toBe(120);
		expect(query.startDate).toMatch(/Z$/);
		scope.done();
	});

	test.each([
		[
			'by id (looked up in the channel list)',
			[
				{
					id: 'p_x',
					integration: 'ch_x',
					content: 'Launch day',
					publishDate: '2027-01-15T09:00:00Z',
				},
				{
					id: 'p_li',
					integration: 'ch_li',
					content: 'Launch day',
					publishDate: '2027-01-15T09:00:00Z',
				},
			],
		],
		[
			'as a record (the real backend)',
			{
				posts: [
					{
						id: 'p_x',
						integration: { id: 'ch_x', name: 'Acme', providerIdentifier: 'x' },
						content: 'Launch day',
						publishDate: '2027-01-15T09:00:00Z',
					},
					{
						id: 'p_li',
						integration: { id: 'ch_li', name: 'Acme Corp', providerIdentifier: 'linkedin' },
						content: 'Launch day',
						publishDate: '2027-01-15T09:00:00Z',
					},
				],
			},
		],
	])(
		'searchPosts: one post on two channels is two entries named by their channel, the channel %s',
		async (_how, body) => {
			api()
				.get(`${API_PATH}/posts`)
				.query(true)
				.reply(200, body)
				.get(`${API_PATH}/integrations`)
				.optionally()
				.reply(200, channels);
			expect((await node.methods.listSearch.searchPosts.call(context())).results).toEqual([
				{ name: 'Launch day · Acme · X · 15 Jan 2027 10:00 CET', value: 'p_x' },
				{ name: 'Launch day · Acme Corp · LinkedIn · 15 Jan 2027 10:00 CET', value: 'p_li' },
			]);
		},
	);

	test('getMediaFiles: pages of the library, "name · date" → id; files without an id or a location are left out', async () => {
		const scope = api()
			.get(`${API_PATH}/media`)
			.reply(200, {
				pages: 2,
				results: [
					{
						id: 'med_1',
						name: 'photo.png',
						path: '/uploads/photo.png',
						createdAt: '2026-11-20T10:00:00Z',
					},
					{ name: 'no id', path: '/x' },
				],
			})
			.get(`${API_PATH}/media`)
			.query({ page: 2 })
			.reply(200, {
				pages: 2,
				results: [{ id: 'med_2', url: '/uploads/clip.mp4' }, { id: 'med_3' }],
			});
		expect(await node.methods.loadOptions.getMediaFiles.call(context())).toEqual([
			{ name: 'Choose a Media File', value: '' },
			{ name: 'photo.png · 20 Nov 2026 11:00 CET', value: 'med_1' },
			{ name: 'clip.mp4', value: 'med_2' },
		]);
		scope.done();
	});

	test.each([
		['two channels chosen', ['ch_li', 'ch_x'], ['Acme · X', 'Acme Corp · LinkedIn']],
		['one channel chosen', ['ch_x'], ['Acme · X']],
		['none chosen yet', [], ['Acme · X', 'Acme Corp · LinkedIn', 'Other · Threads']],
		[
			'an expression',
			'={{ $json.channels }}',
			['Acme · X', 'Acme Corp · LinkedIn', 'Other · Threads'],
		],
	])(
		"getPostChannels (Text Per Channel): the post's channels, %s",
		async (_case, chosen, names) => {
			api()
				.get(`${API_PATH}/integrations`)
				.reply(200, [...channels, { id: 'ch_th', name: 'Other', identifier: 'threads' }]);
			const panel = loadOptionsContextFor(
				ACTION_NODE_TYPE,
				{ authentication: 'apiKey', resource: 'post', operation: 'create', channels: chosen },
				apiKeyCredentials,
				{ socialContentApi: { id: '1', name: 'c' } },
			);
			expect(
				(await node.methods.loadOptions.getPostChannels.call(panel)).map((option) => option.name),
			).toEqual(['Choose a Channel', ...names]);
		},
	);

	test.each([
		[
			'X and LinkedIn chosen',
			['ch_li', 'ch_x'],
			['LinkedIn: Carousel Name', 'LinkedIn: Post Images as Carousel', 'X: Community'],
		],
		['none chosen yet: every network', [], undefined],
		['an expression: every network', '={{ $json.channels }}', undefined],
	])(
		"getSettingNames (Other Setting → Name): the known settings of the post's networks, %s",
		async (_case, chosen, names) => {
			api().get(`${API_PATH}/integrations`).reply(200, channels);
			const panel = loadOptionsContextFor(
				ACTION_NODE_TYPE,
				{ authentication: 'apiKey', resource: 'post', operation: 'create', channels: chosen },
				apiKeyCredentials,
				{ socialContentApi: { id: '1', name: 'c' } },
			);
			const options = await node.methods.loadOptions.getSettingNames.call(panel);
			// First, a new row's value: not marked wrong before the user chooses.
			expect(options[0]).toEqual({ name: 'Choose a Setting', value: '' });
			if (names) expect(options.slice(1).map((option) => option.name)).toEqual(names);
			else expect(options.length).toBe(KNOWN_SETTINGS.length + 1);
			// Each names its network and the setting as the service spells it.
			expect(options.find((option) => option.value === 'x:community')).toEqual({
				name: 'X: Community',
				value: 'x:community',
				description: 'community: The URL of an X community to post in',
			});
		},
	);

	test.each([
		[
			'All LinkedIn Channels',
			'network:linkedin',
			['LinkedIn: Carousel Name', 'LinkedIn: Post Images as Carousel'],
		],
		['one X channel', 'channel:ch_x', ['X: Community']],
		[
			'nothing yet: the post’s networks',
			'',
			['LinkedIn: Carousel Name', 'LinkedIn: Post Images as Carousel', 'X: Community'],
		],
	])(
		'getSettingNames: the setting row’s Applies To narrows the names, %s',
		async (_case, target, names) => {
			api().get(`${API_PATH}/integrations`).optionally().reply(200, channels);
			const panel = loadOptionsContextFor(
				ACTION_NODE_TYPE,
				{
					authentication: 'apiKey',
					resource: 'post',
					operation: 'create',
					channels: ['ch_li', 'ch_x'],
					settings: { setting: [{ target: 'network:x' }, { target, name: '' }] },
				},
				apiKeyCredentials,
				{ socialContentApi: { id: '1', name: 'c' } },
				undefined,
				'parameters.settings.setting[1].name',
			);
			const options = await node.methods.loadOptions.getSettingNames.call(panel);
			expect(options.map((option) => option.name)).toEqual(['Choose a Setting', ...names]);
		},
	);

	test('the known settings: one per network and name, each from the backend DTOs, none duplicating X: Who Can Reply', () => {
		const keys = KNOWN_SETTINGS.map((setting) => `${setting.network}:${setting.name}`);
		expect(new Set(keys).size).toBe(keys.length);
		expect(keys).not.toContain('x:who_can_reply_post');
		expect(new Set(KNOWN_SETTINGS.map((setting) => setting.network))).toEqual(
			new Set(['instagram', 'linkedin', 'pinterest', 'reddit', 'tiktok', 'x', 'youtube']),
		);
	});

	test('getSettingTargets: each network of the connected channels, then each channel', async () => {
		api()
			.get(`${API_PATH}/integrations`)
			.reply(200, [...channels, { id: 'ch_x2', name: 'Acme Two', identifier: 'x' }]);
		expect(await node.methods.loadOptions.getSettingTargets.call(context())).toEqual([
			{ name: 'Choose a Network or Channel', value: '' },
			{ name: 'All LinkedIn Channels', value: 'network:linkedin' },
			{ name: 'All X Channels', value: 'network:x' },
			{ name: 'Acme · X', value: 'channel:ch_x' },
			{ name: 'Acme Corp · LinkedIn', value: 'channel:ch_li' },
			{ name: 'Acme Two · X', value: 'channel:ch_x2' },
		]);
	});
});
