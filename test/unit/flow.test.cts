import type { IDataObject } from 'n8n-workflow';

import { API_PATH, api, apiKeyCredentials, startGeneration } from '../helpers/fixtures.cjs';
import { ACTION_NODE_TYPE, runChain, START_NODE_TYPE } from '../helpers/harness.cjs';

test('Start Generation (wait, download) → Create Post with its outputs attached (no expression), end to end', async () => {
	let postBody: IDataObject | undefined;
	const scope = api()
		.post(`${API_PATH}/studio/generations`, {
			formatId: 'slideshow',
			input: { hook: 'Five habits' },
		})
		.reply(200, { id: 'gen_7', status: 'queued', credits: 10 })
		.get(`${API_PATH}/studio/generations/gen_7`)
		.reply(200, { id: 'gen_7', status: 'running' })
		.get(`${API_PATH}/studio/generations/gen_7`)
		.reply(200, {
			id: 'gen_7',
			status: 'done',
			outputs: [{ id: 'med_7', path: '/uploads/gen_7.mp4' }],
		})
		.get('/uploads/gen_7.mp4')
		.reply(200, Buffer.from('mp4 bytes'), { 'Content-Type': 'video/mp4' })
		.get(`${API_PATH}/integrations`)
		.reply(200, [
			{ id: 'ch_x', name: 'X', identifier: 'x' },
			{ id: 'ch_li', name: 'LinkedIn', identifier: 'linkedin' },
		])
		.post(`${API_PATH}/posts`, (body: IDataObject) => {
			postBody = body;
			return true;
		})
		.reply(200, [{ postId: 'p_x' }, { postId: 'p_li' }]);

	const credentials = { socialContentApi: { id: '1', name: 'c' } };
	const result = await runChain(
		[
			{ name: 'Start', type: START_NODE_TYPE },
			{
				name: 'Generate',
				type: ACTION_NODE_TYPE,
				credentials,
				parameters: {
					...startGeneration(
						'slideshow',
						{ hook: 'Five habits' },
						{ waitForCompletion: true, pollInterval: 0.1 },
					),
				},
			},
			{
				name: 'Post',
				type: ACTION_NODE_TYPE,
				credentials,
				parameters: {
					resource: 'post',
					operation: 'create',
					type: 'now',
					channels: ['ch_x', 'ch_li'],
					content: { parts: [{ text: '=New slideshow: {{ $json.id }}' }] },
					media: { files: [{ source: 'generation' }] },
				},
			},
		],
		{ credentials: apiKeyCredentials, settings: { timezone: 'UTC' } },
	);

	expect(result.error).toBeUndefined();
	const [generated] = result.output('Generate');
	expect(generated.json).toMatchObject({ id: 'gen_7', status: 'done', credits: 10 });
	expect(generated.binary?.output_0).toMatchObject({
		mimeType: 'video/mp4',
		fileName: 'gen_7.mp4',
	});
	expect(postBody?.posts).toEqual([
		{
			integration: { id: 'ch_x' },
			value: [
				{ content: 'New slideshow: gen_7', image: [{ id: 'med_7', path: '/uploads/gen_7.mp4' }] },
			],
			settings: { who_can_reply_post: 'everyone', __type: 'x' },
		},
		{
			integration: { id: 'ch_li' },
			value: [
				{ content: 'New slideshow: gen_7', image: [{ id: 'med_7', path: '/uploads/gen_7.mp4' }] },
			],
			settings: { __type: 'linkedin' },
		},
	]);
	expect(result.output('Post').map((item) => item.json.postId)).toEqual(['p_x', 'p_li']);
	scope.done();
});
