/** Workflows the end-to-end suite imports into n8n: one per resource, each node run once. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { formatInputs, startGeneration } from '../helpers/parameters.cjs';

const ACTION = 'n8n-nodes-social-content.socialContent';
export const API_CREDENTIAL = { id: 'sandboxApiKey', name: 'Social Content (sandbox)' };
export const OAUTH2_CREDENTIAL = { id: 'sandboxOAuth2', name: 'Social Content OAuth2 (sandbox)' };
/** An Instance URL that serves a web page (the sandbox's login page), as a mistyped address does. */
export const WRONG_ADDRESS_CREDENTIAL = {
	id: 'sandboxWrongAddress',
	name: 'Social Content (web page address)',
};

type Step = [name: string, parameters: IDataObject, extra?: IDataObject];

export function chainWorkflow(
	id: string,
	steps: Step[],
	authentication: 'apiKey' | 'oAuth2' = 'apiKey',
): IDataObject {
	const nodes: IDataObject[] = [
		{
			id: `${id}-0`,
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
	];
	steps.forEach(([name, parameters, extra], index) => {
		nodes.push({
			id: `${id}-${index + 1}`,
			name,
			type: ACTION,
			typeVersion: 1,
			position: [(index + 1) * 220, 0],
			executeOnce: true,
			parameters: { authentication, ...parameters },
			credentials:
				authentication === 'apiKey'
					? { socialContentApi: API_CREDENTIAL }
					: { socialContentOAuth2Api: OAUTH2_CREDENTIAL },
			...extra,
		});
	});
	const connections: IDataObject = {};
	for (let index = 0; index < nodes.length - 1; index++) {
		connections[nodes[index].name as string] = {
			main: [[{ node: nodes[index + 1].name, type: 'main', index: 0 }]],
		};
	}
	return {
		id,
		name: `e2e ${id}`,
		nodes,
		connections,
		active: false,
		settings: { executionOrder: 'v1' },
	};
}

const locator = (value: string) => ({ __rl: true, mode: 'id', value });

export const RESOURCE_WORKFLOWS: Record<string, IDataObject> = {
	account: chainWorkflow('e2eAccount', [
		['Check Connection', { resource: 'account', operation: 'checkConnection' }],
		['Get Brand Profile', { resource: 'account', operation: 'getBrandProfile' }],
	]),
	hook: chainWorkflow('e2eHook', [
		[
			'Score',
			{
				resource: 'hook',
				operation: 'score',
				text: 'Stop scrolling: read this',
				platform: 'tiktok',
			},
		],
		['Generate', { resource: 'hook', operation: 'generate', topic: 'coffee', count: 3 }],
	]),
	studio: chainWorkflow('e2eStudio', [
		['List Formats', { resource: 'studio', operation: 'listFormats' }],
		[
			'Start Generation',
			startGeneration(
				'slideshow',
				{ hook: '5 habits' },
				{
					// Format Inputs as the editor saves them: the list kept hidden, its id saying so.
					inputs: formatInputs({ hook: '5 habits' }, [
						{ id: 'hook', type: 'string' },
						{
							id: 'list:string:optional:captions',
							displayName: 'Captions',
							type: 'array',
							display: false,
						},
					]),
					waitForCompletion: true,
					pollInterval: 0.2,
					options: { maxCredits: 20 },
					// As a new List Inputs row leaves it (the format's only list), entries as typed:
					// line breaks between entries, commas inside one.
					listInputs: {
						input: [{ name: '', entries: 'Intro\nMistake one, and two\nOutro' }],
					},
				},
			),
		],
		[
			'Get Generation',
			{
				resource: 'studio',
				operation: 'getGeneration',
				generationId: locator('={{ $json.id }}'),
				downloadOutputs: true,
			},
		],
		[
			'List Generations',
			{ resource: 'studio', operation: 'listGenerations', status: 'done', returnAll: true },
		],
		['Get Credits', { resource: 'studio', operation: 'getCredits' }],
	]),
	channel: chainWorkflow('e2eChannel', [
		['List Channels', { resource: 'channel', operation: 'list' }],
		['Get Connect URL', { resource: 'channel', operation: 'getConnectUrl', provider: 'linkedin' }],
		['Is Connected', { resource: 'channel', operation: 'isConnected' }],
		['Get Analytics', { resource: 'channel', operation: 'getAnalytics', channel: locator('ch_x') }],
		[
			'Get Post Analytics',
			{ resource: 'channel', operation: 'getPostAnalytics', postId: locator('post_1') },
		],
		[
			'Disconnect',
			{ resource: 'channel', operation: 'disconnect', channel: locator('ch_instagram') },
		],
	]),
	media: chainWorkflow('e2eMedia', [
		[
			'Import From URL',
			{ resource: 'media', operation: 'importFromUrl', url: 'https://example.com/picture.png' },
		],
		['List Media', { resource: 'media', operation: 'list', returnAll: true }],
	]),
	post: chainWorkflow('e2ePost', [
		[
			'Create Post',
			{
				resource: 'post',
				operation: 'create',
				type: 'schedule',
				date: '2030-01-02T10:00:00',
				channels: ['ch_x', 'ch_linkedin'],
				content: { parts: [{ text: 'Hello from the e2e suite' }, { text: 'Second part' }] },
				options: { tags: 'e2e' },
			},
		],
		[
			'List Posts',
			{
				resource: 'post',
				operation: 'list',
				startDate: '2030-01-01T00:00:00',
				endDate: '2030-01-03T00:00:00',
			},
		],
		[
			'Find Free Slot',
			{ resource: 'post', operation: 'findFreeSlot', channel: locator('ch_linkedin') },
		],
		[
			'Delete Post',
			{
				resource: 'post',
				operation: 'delete',
				postId: locator("={{ $('Create Post').first().json.postId }}"),
			},
		],
	]),
};

/**
 * Against the sandbox's real-backend profile: a file made in n8n posted to X with tags (sent as
 * { value, label } objects), the post deleted, a channel disconnected (its answer carries the
 * channel's OAuth tokens, which must not reach n8n's execution data).
 */
export const REAL_BACKEND_WORKFLOW = ((): IDataObject => {
	const workflow = chainWorkflow('e2eRealBackend', [
		[
			'Create Post',
			{
				resource: 'post',
				operation: 'create',
				type: 'now',
				channels: ['ch_x'],
				content: { parts: [{ text: 'Launch day: the checklist is attached' }] },
				media: { files: [{ source: 'binary', binaryPropertyName: 'data' }] },
				options: { tags: 'launch, news' },
			},
		],
		[
			'Delete Post',
			{
				resource: 'post',
				operation: 'delete',
				postId: locator("={{ $('Create Post').first().json.postId }}"),
			},
		],
		['Disconnect', { resource: 'channel', operation: 'disconnect', channel: locator('ch_tiktok') }],
	]);
	const nodes = workflow.nodes as IDataObject[];
	const connections = workflow.connections as IDataObject;
	const makeFile: IDataObject[] = [
		{
			id: 'e2eRealBackend-text',
			name: 'Some Text',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [0, 200],
			parameters: {
				mode: 'manual',
				assignments: {
					assignments: [
						{ id: 't1', name: 'caption', value: 'Our launch checklist', type: 'string' },
					],
				},
				options: {},
			},
		},
		{
			id: 'e2eRealBackend-file',
			name: 'Make a File',
			type: 'n8n-nodes-base.convertToFile',
			typeVersion: 1.1,
			position: [220, 200],
			parameters: {
				operation: 'toText',
				sourceProperty: 'caption',
				options: { fileName: 'checklist.txt' },
			},
		},
	];
	const link = (to: string) => ({ main: [[{ node: to, type: 'main', index: 0 }]] });
	return {
		...workflow,
		nodes: [nodes[0], ...makeFile, ...nodes.slice(1)],
		connections: {
			...connections,
			Start: link('Some Text'),
			'Some Text': link('Make a File'),
			'Make a File': link('Create Post'),
		},
	};
})();

export const OAUTH2_WORKFLOW = chainWorkflow(
	'e2eOAuth2',
	[['Check Connection', { resource: 'account', operation: 'checkConnection' }]],
	'oAuth2',
);

/** Two posts scheduled a few seconds ahead through the node: one goes out, one fails (its text asks the sandbox to). */
export const POSTS_SOON_WORKFLOW = chainWorkflow('e2ePostsSoon', [
	[
		'Schedule Post',
		{
			resource: 'post',
			operation: 'create',
			type: 'schedule',
			date: '={{ $now.plus({ seconds: 20 }).toISO() }}',
			channels: ['ch_x'],
			content: { parts: [{ text: 'Live in twenty seconds' }] },
		},
	],
	[
		'Schedule Failing Post',
		{
			resource: 'post',
			operation: 'create',
			type: 'schedule',
			date: '={{ $now.plus({ seconds: 20 }).toISO() }}',
			channels: ['ch_linkedin'],
			content: { parts: [{ text: 'This one fails [fail]' }] },
		},
	],
]);

export const ERROR_WORKFLOW = chainWorkflow('e2eErrors', [
	[
		'Get Missing Generation',
		{ resource: 'studio', operation: 'getGeneration', generationId: locator('gen_missing') },
		{ onError: 'continueRegularOutput' },
	],
]);

/** For the faults injected by the sandbox: a read that is retried, a body that is not JSON, a 429. */
export const FAULT_WORKFLOW = chainWorkflow('e2eFaults', [
	['Check Connection', { resource: 'account', operation: 'checkConnection' }],
	[
		'Get Brand Profile',
		{ resource: 'account', operation: 'getBrandProfile' },
		{ onError: 'continueRegularOutput' },
	],
	['Score', { resource: 'hook', operation: 'score', text: 'Rate limited, then fine' }],
]);

/** The example workflows shipped in examples/, by file name. */
export function exampleWorkflows(): Record<string, IDataObject> {
	const folder = join(__dirname, '..', '..', 'examples');
	const result: Record<string, IDataObject> = {};
	for (const file of readdirSync(folder).filter((name) => name.endsWith('.json'))) {
		result[file] = JSON.parse(readFileSync(join(folder, file), 'utf8')) as IDataObject;
	}
	return result;
}
