/**
 * What the panels say and offer, read as a person in the editor reads them: list fields that keep
 * commas, filters labelled with their events, a subtitle in words, icons told apart, and values
 * saved from a list that could not load flagged rather than kept silently.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INode, INodeProperties } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { aNetwork } from '../../nodes/shared/channels';
import { formatMention } from '../../nodes/shared/formats';
import { chosenValues } from '../../nodes/shared/loadOptions';
import { SocialContent } from '../../nodes/SocialContent/SocialContent.node';
import { SocialContentTrigger } from '../../nodes/SocialContentTrigger/SocialContentTrigger.node';
import { nodeTypes, TRIGGER_NODE_TYPE } from '../helpers/harness.cjs';

const action = new SocialContent().description;
const trigger = new SocialContentTrigger().description;

/** A property anywhere in a description: top level, or inside collections. */
function findProperty(properties: INodeProperties[], name: string): INodeProperties | undefined {
	for (const property of properties) {
		if (property.name === name) return property;
		for (const option of (property.options ?? []) as Array<{ values?: INodeProperties[] }>) {
			const inner = option.values && findProperty(option.values, name);
			if (inner) return inner;
		}
	}
	return undefined;
}

describe('Start Generation → List Inputs', () => {
	const listInputs = action.properties.find((property) => property.name === 'listInputs')!;
	const [row] = listInputs.options as Array<{ displayName: string; values: INodeProperties[] }>;
	const [input, entries] = row.values;

	test('a list of entries, each an input of the chosen format and a box of several lines', () => {
		expect(listInputs).toMatchObject({
			displayName: 'List Inputs',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add List Input',
			displayOptions: { show: { inputMode: ['fields'] } },
		});
		expect(input).toMatchObject({
			displayName: 'Input Name or ID',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getListInputs', loadOptionsDependsOn: ['format.value'] },
		});
		expect(entries).toMatchObject({ displayName: 'Entries', type: 'string' });
		expect(entries.typeOptions?.rows).toBeGreaterThan(1);
	});

	test('the short label is the field’s; the hint says one per line and that commas stay', () => {
		expect(entries.displayName.length).toBeLessThanOrEqual(20);
		expect(entries.hint).toBe(
			'One entry per line; commas stay inside an entry. A JSON array, or an expression giving an array, works too.',
		);
	});
});

describe('the trigger’s panel', () => {
	test('each filter is labelled with the events it applies to, and says so first', () => {
		const formats = findProperty(trigger.properties, 'formats')!;
		const channels = findProperty(trigger.properties, 'channels')!;
		expect(formats.displayName).toBe('Generation Format Names or IDs');
		expect(formats.description).toMatch(/^For the generation events: /);
		expect(formats.displayOptions?.show?.events).toEqual(['done', 'failed']);
		expect(channels.displayName).toBe('Post Channel Names or IDs');
		expect(channels.description).toMatch(/^For the post events: /);
		expect(channels.displayOptions?.show?.events).toEqual(['postPublished', 'postFailed']);
	});

	test.each([
		[['done'], 'Generation finished'],
		[['postPublished', 'postFailed'], 'Post published, Post failed'],
		[['done', 'failed', 'postPublished'], 'Generation finished, Generation failed, Post published'],
	])('the subtitle under the node on the canvas names %j in words', (events, words) => {
		const node: INode = {
			id: 'trigger',
			name: 'Social Content Trigger',
			type: TRIGGER_NODE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: { events },
		};
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
		expect(
			workflow.expression.getSimpleParameterValue(node, trigger.subtitle, 'internal', {}),
		).toBe(words);
	});
});

describe('icons', () => {
	const read = (file: string) =>
		readFileSync(join(__dirname, '../../nodes/SocialContent', file.replace(/^file:/, '')), 'utf8');
	const icon = action.icon as { light: string; dark: string };
	/** The lightning bolt n8n's canvas puts on triggers, which the action's icon used to carry. */
	const BOLT = 'M33 22l-7 10h6l-2 8 8-11h-6l1-7z';

	test.each(['light', 'dark'] as const)(
		'the action node’s %s icon has no lightning bolt: it must not pass for a trigger',
		(theme) => {
			expect(read(icon[theme])).not.toContain(BOLT);
			expect(read(icon[theme])).toMatch(/^<svg [^>]*viewBox="0 0 64 64"/);
		},
	);
});

describe('Post → Create → Settings → Other Setting', () => {
	test('its names reload when Applies To changes (a sibling in the same row)', () => {
		const settingName = findProperty(
			action.properties.filter((property) => property.name === 'settings'),
			'name',
		);
		expect(settingName?.typeOptions).toMatchObject({
			loadOptionsMethod: 'getSettingNames',
			loadOptionsDependsOn: ['channels', '&target'],
		});
		expect(settingName?.hint).toMatch(/"Applies To" covers/);
	});

	test('n8n does not reload the names while an expression of the node cannot be worked out in the editor: the hint says to reopen the node\'s panel (not "the list")', () => {
		const settingName = findProperty(
			action.properties.filter((property) => property.name === 'settings'),
			'name',
		);
		expect(settingName?.hint).toContain(
			"If it does not follow a change of Applies To, close the node's panel and open it again.",
		);
	});

	test.each([
		['x', 'an X'],
		['instagram', 'an Instagram'],
		['linkedin', 'a LinkedIn'],
		['youtube', 'a YouTube'],
		['tiktok', 'a TikTok'],
	])('a network named as people write it: %s → "%s"', (network, words) => {
		expect(aNetwork(network)).toBe(words);
	});
});

describe('messages name a format as the panel shows it, its id in brackets', () => {
	test.each([
		[{ id: 'image_fast', name: 'Image (fast) · 1 credit' }, '"Image (fast)" (image_fast)'],
		[{ id: 'image_fast', name: 'Image (fast)' }, '"Image (fast)" (image_fast)'],
		[{ id: 'image_fast' }, '"image_fast"'],
		[{ id: 'slideshow', name: 'slideshow' }, '"slideshow"'],
	])('%j → %s', (format, words) => {
		expect(formatMention(format)).toBe(words);
	});
});

describe('a choice saved from a list that could not load is flagged, not kept silently', () => {
	const node = { name: 'Node' } as INode;

	test('an empty choice among the values: an error naming the field and what to do', () => {
		expect(() => chosenValues(node, ['ch_x', ''], 'Post Channel Names or IDs')).toThrow(
			'"Post Channel Names or IDs" holds an empty choice, saved while its list could not be loaded',
		);
		try {
			chosenValues(node, [''], 'Channel Names or IDs', 3);
		} catch (error) {
			expect(error).toMatchObject({
				description:
					'Open "Channel Names or IDs", remove the empty choice and choose again from the list.',
				context: { itemIndex: 3 },
			});
		}
	});

	test('real choices and no choice at all pass as they are', () => {
		expect(chosenValues(node, ['ch_x', ' ch_li '], 'Channel Names or IDs')).toEqual([
			'ch_x',
			'ch_li',
		]);
		expect(chosenValues(node, [], 'Channel Names or IDs')).toEqual([]);
		// An expression may give text: ids separated by commas, or one numeric id.
		expect(chosenValues(node, 'ch_x, ch_li,', 'Channel Names or IDs')).toEqual(['ch_x', 'ch_li']);
		expect(chosenValues(node, 7, 'Channel Names or IDs')).toEqual(['7']);
		expect(chosenValues(node, undefined, 'Channel Names or IDs')).toEqual([]);
	});
});

describe('Post → Create, Channel Names or IDs', () => {
	// n8n's editor marks a list field's value "is not supported!" when the list lacks it, an
	// expression's (or an AI agent's) value included, unless the field allows arbitrary values.
	test('a channel by exact name, id or network (an expression, an AI tool) is a value it accepts, unmarked', () => {
		const channels = action.properties.find(
			(property) =>
				property.name === 'channels' &&
				property.displayOptions?.show?.operation?.includes('create') === true,
		);
		expect(channels?.type).toBe('multiOptions');
		expect(channels?.typeOptions?.loadOptionsMethod).toBe('getChannels');
		expect(channels?.allowArbitraryValues).toBe(true);
	});
});
