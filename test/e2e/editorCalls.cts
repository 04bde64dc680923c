/** What the editor asks n8n's server for while a user fills a panel: dropdowns, lists, fields. */
import type { IDataObject } from 'n8n-workflow';

import type { N8n } from './n8n.cjs';
import { API_CREDENTIAL, WRONG_ADDRESS_CREDENTIAL } from './workflows.cjs';

const NODE_TYPE = { name: 'n8n-nodes-social-content.socialContent', version: 1 };
const TRIGGER_TYPE = { name: 'n8n-nodes-social-content.socialContentTrigger', version: 1 };

async function ask(
	n8n: N8n,
	endpoint: string,
	methodName: string,
	path: string,
	parameters: IDataObject,
	nodeType = NODE_TYPE,
	credential = API_CREDENTIAL,
): Promise<unknown> {
	const answer = await n8n.rest('POST', `/dynamic-node-parameters/${endpoint}`, {
		path,
		methodName,
		nodeTypeAndVersion: nodeType,
		currentNodeParameters: { authentication: 'apiKey', ...parameters },
		credentials: { socialContentApi: credential },
	});
	return answer.data;
}

const START = { resource: 'studio', operation: 'startGeneration' };

/** Start Generation's Format Inputs once a format is picked (the resource mapper's fields). */
export async function formatInputFields(n8n: N8n, formatId: string): Promise<IDataObject[]> {
	const data = (await ask(n8n, 'resource-mapper-fields', 'getFormatInputs', 'parameters.inputs', {
		...START,
		format: { __rl: true, mode: 'list', value: formatId },
	})) as IDataObject;
	return data.fields as IDataObject[];
}

/** Start Generation → List Inputs → Input Name or ID, once a format is picked. */
export async function listInputChoices(n8n: N8n, formatId: string): Promise<IDataObject[]> {
	return (await ask(n8n, 'options', 'getListInputs', 'parameters.listInputs.input[0].name', {
		...START,
		format: { __rl: true, mode: 'list', value: formatId },
	})) as IDataObject[];
}

/** The Format picker's list. */
export async function formatList(n8n: N8n): Promise<IDataObject[]> {
	return (
		(await ask(
			n8n,
			'resource-locator-results',
			'searchFormats',
			'parameters.format',
			START,
		)) as IDataObject
	).results as IDataObject[];
}

/** Post → Create → Settings → Applies To. */
export async function settingTargets(n8n: N8n): Promise<IDataObject[]> {
	return (await ask(n8n, 'options', 'getSettingTargets', 'parameters.settings.setting.target', {
		resource: 'post',
		operation: 'create',
	})) as IDataObject[];
}

/** Post → Create → Settings → Other Setting → Setting Name or ID, with these channels chosen. */
export async function settingNames(n8n: N8n, channels: string[]): Promise<IDataObject[]> {
	return (await ask(n8n, 'options', 'getSettingNames', 'parameters.settings.setting.name', {
		resource: 'post',
		operation: 'create',
		channels,
	})) as IDataObject[];
}

/** Get Generation's picker, and Post → Delete's. */
export async function recentPicks(n8n: N8n, what: 'generations' | 'posts'): Promise<IDataObject[]> {
	const [methodName, path, parameters] =
		what === 'generations'
			? [
					'searchGenerations',
					'parameters.generationId',
					{ resource: 'studio', operation: 'getGeneration' },
				]
			: ['searchPosts', 'parameters.postId', { resource: 'post', operation: 'delete' }];
	return ((await ask(n8n, 'resource-locator-results', methodName, path, parameters)) as IDataObject)
		.results as IDataObject[];
}

/** Post → Create → Options → Text Per Channel → Channel, with these channels chosen. */
export async function textPerChannelChoices(n8n: N8n, channels: string[]): Promise<IDataObject[]> {
	return (await ask(
		n8n,
		'options',
		'getPostChannels',
		'parameters.options.channelTexts.text.channel',
		{ resource: 'post', operation: 'create', channels },
	)) as IDataObject[];
}

/** The trigger's Channel Names or IDs, shown for the post events. */
export async function triggerChannelChoices(n8n: N8n): Promise<IDataObject[]> {
	return (await ask(
		n8n,
		'options',
		'getChannels',
		'parameters.channels',
		{ events: ['postPublished', 'postFailed'] },
		TRIGGER_TYPE,
	)) as IDataObject[];
}

/**
 * The trigger's channel list with a credential whose Instance URL serves a web page: n8n would
 * show only "Error fetching options"; the list's one entry says why instead.
 */
export async function channelChoicesAtWrongAddress(n8n: N8n): Promise<IDataObject[]> {
	return (await ask(
		n8n,
		'options',
		'getChannels',
		'parameters.channels',
		{ events: ['postPublished', 'postFailed'] },
		TRIGGER_TYPE,
		WRONG_ADDRESS_CREDENTIAL,
	)) as IDataObject[];
}

/** "15 Jan 2027 10:00 GMT-5": a date in the workflow's zone, the zone shown. */
const PICKER_DATE = /\d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2} [A-Z][A-Za-z0-9+-]*/;

/** The panels' dropdowns and fields as a user would see them, against the sandbox. */
export async function expectEditorDropdowns(n8n: N8n): Promise<void> {
	const fields = await formatInputFields(n8n, 'video_clip');
	expect(
		fields.map(({ id, displayName, required, type }) => ({ id, displayName, required, type })),
	).toEqual([
		{ id: 'prompt', displayName: 'Prompt', required: true, type: 'string' },
		{ id: 'seconds', displayName: 'Seconds', required: false, type: 'number' },
	]);
	// A list input is hidden among the fields: List Inputs takes it, one entry per line.
	expect(
		(await formatInputFields(n8n, 'slideshow')).find(
			(field) => field.id === 'list:string:optional:captions',
		),
	).toMatchObject({
		displayName: 'Captions',
		type: 'array',
		required: false,
		display: false,
	});
	expect(await listInputChoices(n8n, 'slideshow')).toEqual([
		{ name: 'Captions (list of texts)', value: '' },
	]);
	expect((await formatList(n8n)).find((format) => format.value === 'image_fast')).toEqual({
		name: 'Image (fast) · 1 credit',
		value: 'image_fast',
		description: 'Needs: Prompt',
	});
	expect((await settingTargets(n8n)).map((option) => option.name)).toEqual(
		expect.arrayContaining(['All X Channels', 'All LinkedIn Channels', 'Sandbox on X · X']),
	);
	expect(await textPerChannelChoices(n8n, ['ch_x'])).toEqual([
		{ name: 'Choose a Channel', value: '' },
		{ name: 'Sandbox on X · X', value: 'ch_x' },
	]);
	// The known settings of the post's networks only: X's for an X channel.
	// (first, a new row's value, so the row is not marked wrong before the user chooses)
	expect((await settingNames(n8n, ['ch_x'])).map((option) => option.value)).toEqual([
		'',
		'x:community',
	]);
	expect(await triggerChannelChoices(n8n)).toEqual(
		expect.arrayContaining([{ name: 'Sandbox on X · X', value: 'ch_x' }]),
	);
	// A list that cannot load offers nothing to pick: n8n's server answers with the error, whose
	// message the editor shows on the field.
	const refused = await channelChoicesAtWrongAddress(n8n).then(
		(options) => ({ options }),
		(error: Error) => ({ message: error.message }),
	);
	expect(refused).not.toHaveProperty('options');
	expect(JSON.stringify(refused)).toMatch(/Could not load the list: .*(web page|Instance URL)/i);
	expect(JSON.stringify(refused)).not.toContain('sk_sandbox_demo_key');
}

/** The pickers over what exists (run after workflows made generations and posts): named as the lists name things. */
export async function expectRecentPicks(n8n: N8n, formatNames: string[]): Promise<void> {
	const generations = await recentPicks(n8n, 'generations');
	expect(generations.length).toBeGreaterThan(0);
	for (const { name } of generations) {
		expect(formatNames.some((format) => String(name).startsWith(`${format} · `))).toBe(true);
		expect(String(name)).toMatch(PICKER_DATE);
	}
	const posts = await recentPicks(n8n, 'posts');
	expect(posts.length).toBeGreaterThan(0);
	// The post's text leads (what tells posts apart), then its channel and date.
	for (const { name } of posts)
		expect(String(name)).toMatch(new RegExp(` · Sandbox on \\w+ · \\w+ · ${PICKER_DATE.source}$`));
}
