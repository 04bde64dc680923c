/**
 * What a user sees in the editor before running anything: description-level checks of the panels.
 */
import { existsSync } from 'node:fs';
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
