/**
 * What a user sees in the editor before running anything: description-level checks of the panels.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties } from 'n8n-workflow';

import { SocialContent } from '../../nodes/SocialContent/SocialContent.node';
import { SocialContentTrigger } from '../../nodes/SocialContentTrigger/SocialContentTrigger.node';

const action = new SocialContent().description;
const trigger = new SocialContentTrigger().description;

describe('the panels', () => {
	test('each resource lists its operations in A–Z order', () => {
		const operationLists = action.properties.filter((property) => property.name === 'operation');
		expect(operationLists.length).toBeGreaterThan(0);
		for (const list of operationLists) {
			const names = (list.options as Array<{ name: string }>).map((option) => option.name);
			expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		}
	});

	test('the trigger and the action node have icons of their own, each with a light and a dark file', () => {
		const icons = [action.icon, trigger.icon] as Array<{ light: string; dark: string }>;
		expect(icons[0].light).not.toBe(icons[1].light);
		expect(icons[0].dark).not.toBe(icons[1].dark);
		for (const [icon, folder] of [
			[icons[0], 'SocialContent'],
			[icons[1], 'SocialContentTrigger'],
		] as const) {
			for (const file of [icon.light, icon.dark])
				expect(existsSync(join(__dirname, '../../nodes', folder, file.replace(/^file:/, '')))).toBe(
					true,
				);
			expect(icon.light).not.toBe(icon.dark);
		}
	});

	test('Custom Platform is required where it shows', () => {
		const custom = action.properties.filter(
			(property: INodeProperties) => property.name === 'customPlatform',
		);
		expect(custom.length).toBeGreaterThan(0);
		for (const property of custom)
			expect(property).toMatchObject({
				required: true,
				displayOptions: { show: { platform: ['custom'] } },
			});
	});
});

describe('option descriptions fit the dropdown (two lines, about 100 characters)', () => {
	test('Post → Create → Media → Attach', () => {
		const media = action.properties.find(
			(property) => property.name === 'media',
		) as INodeProperties & { options: Array<{ values: INodeProperties[] }> };
		const attach = media.options[0].values.find(
			(value) => value.name === 'source',
		) as INodeProperties & { options: Array<{ description?: string }> };
		for (const option of attach.options)
			expect((option.description ?? '').length).toBeLessThanOrEqual(100);
	});
});

test('Start Generation: no two fields titled alike one above the other (the mode and the Name/Value list)', () => {
	const start = action.properties.filter((property) =>
		property.displayOptions?.show?.operation?.includes('startGeneration'),
	);
	const titles = start.map((property) => property.displayName);
	expect(titles).toEqual(
		expect.arrayContaining(['Give Inputs As', 'Format Inputs', 'Inputs by Name', 'Inputs (JSON)']),
	);
	expect(new Set(titles).size).toBe(titles.length);
});

describe('the README names the fields as the panels do', () => {
	/** Every label a panel shows: fields, options, modes, the "Add …" buttons of lists. */
	const labels = new Set<string>();
	const collect = (value: unknown): void => {
		if (Array.isArray(value)) return value.forEach(collect);
		if (!value || typeof value !== 'object') return;
		const entry = value as Record<string, unknown>;
		if (typeof entry.displayName === 'string') labels.add(entry.displayName);
		if (typeof entry.name === 'string' && entry.value !== undefined) labels.add(entry.name);
		if (typeof entry.placeholder === 'string' && /^Add /.test(entry.placeholder))
			labels.add(entry.placeholder);
		for (const key of ['properties', 'options', 'values', 'modes']) collect(entry[key]);
	};
	collect(action.properties);
	collect(trigger.properties);
	/** A field named short: "Timeout" for "Timeout (Seconds)", "Applies To" for "Applies To Name or ID". */
	const isLabel = (term: string) =>
		[...labels].some(
			(label) => label === term || label.startsWith(`${term} (`) || label === `${term} Name or ID`,
		);
	/** Not our panels: n8n's own menus, nodes and options, the credentials' names, the service's menus, names in the examples. */
	const ELSEWHERE = [
		'AI Agent',
		'Allowed HTTP Request Domains',
		'Connect my account',
		'Create Post',
		'Execute workflow',
		'Fetch Test Event',
		'How requests are sent',
		'If',
		'Image (fast)',
		'Map Automatically',
		'MCP Server Trigger',
		'On Error → Continue',
		'Prompt',
		'Read/Write Files from Disk',
		'Retry On Fail',
		'Save',
		'Settings → Community Nodes → Install',
		'Settings → Developer',
		'Settings → Timezone',
		'Social Content',
		'Social Content API',
		'Social Content OAuth2 API',
		'Social Content Tool',
		'Social Content Trigger',
		'Stop and Error',
		'Workflows → Import from File',
	];
	// The README and the pages it links for the details.
	const readme = ['README.md', 'docs/trigger.md', 'docs/requests.md']
		.map((file) => readFileSync(join(__dirname, '../..', file), 'utf8'))
		.join('\n');
	const terms = [
		...new Set(
			[...readme.matchAll(/(?<![*\w])\*([A-Z][^*\n]{1,40})\*(?![*\w])/g)].map(([, term]) => term),
		),
	];

	test('every field, option or button the README puts in italics is on a panel', () => {
		const unknown = terms.filter(
			(term) =>
				!ELSEWHERE.includes(term) &&
				!term.split(' → ').every((part) => isLabel(part) || ELSEWHERE.includes(part)),
		);
		expect(unknown).toEqual([]);
	});

	test('the list of names from elsewhere holds only names the README uses', () => {
		expect(ELSEWHERE.filter((term) => !terms.includes(term))).toEqual([]);
	});
});
