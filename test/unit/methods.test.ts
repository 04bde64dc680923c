import { SocialContent } from '../../nodes/SocialContent/SocialContent.node';
import { API_KEY, API_PATH, api, apiKeyCredentials } from '../helpers/fixtures';
import { ACTION_NODE_TYPE, loadOptionsContextFor } from '../helpers/harness';

const node = new SocialContent();
const context = () =>
	loadOptionsContextFor(ACTION_NODE_TYPE, { authentication: 'apiKey' }, apiKeyCredentials, {
		socialContentApi: { id: '1', name: 'c' },
	});

const channels = [
	{ id: 'ch_x', name: 'Acme', identifier: 'x' },
	{ id: 'ch_li', name: 'Acme Corp', identifier: 'linkedin' },
];

describe('dropdowns, loaded through the same transport', () => {
	test('getChannels: "Name · Network" → id, sorted, with the raw key', async () => {
		const scope = api().get(`${API_PATH}/integrations`).matchHeader('authorization', API_KEY).reply(200, channels);
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
				{ id: 'wall_of_text', name: 'Wall of text', credits: 2, inputs: [{ name: 'hook', required: true }] },
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
		api().get(`${API_PATH}/studio/formats`).reply(200, { formats: [{ formatId: 'slideshow', price: 10 }] });
		expect(await node.methods.loadOptions.getFormats.call(context())).toEqual([
			{ name: 'slideshow · 10 credits', value: 'slideshow' },
		]);
	});

	test('a 401 while loading a dropdown gives the credential advice', async () => {
		api().get(`${API_PATH}/integrations`).reply(401, {});
		await expect(node.methods.loadOptions.getChannels.call(context())).rejects.toThrow(/missing, wrong, or was revoked/);
	});
});
