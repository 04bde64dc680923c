/**
 * The advice in errors names operations and choices as the panel shows them and as they are sent
 * (nodes/shared/hints.ts). The operations' names and values are written once, there, and the
 * node's description takes them from it; held here to the description as n8n loads it, and
 * nowhere written again. A choice an error names is held to the description: a renamed choice
 * fails this test instead of leaving stale advice.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeProperties } from 'n8n-workflow';

import { SocialContent } from '../../nodes/SocialContent/SocialContent.node';
import { OPERATIONS, operationHint, RESOURCES } from '../../nodes/shared/hints';

const ROOT = join(__dirname, '..', '..');
const properties = new SocialContent().description.properties;

/** The options of a property, as [name, value] pairs. */
function optionsOf(property: INodeProperties): Array<[string, string]> {
	return (property.options ?? []).map((option) => {
		const { name, value } = option as { name: string; value: string };
		return [name, value];
	});
}

/** "Studio → Get Generation" for each resource and operation value the node offers. */
function panelLabels(): Map<string, string> {
	const resources = new Map(
		optionsOf(properties.find((property) => property.name === 'resource') as INodeProperties).map(
			([name, value]) => [value, name],
		),
	);
	const labels = new Map<string, string>();
	for (const property of properties.filter((candidate) => candidate.name === 'operation'))
		for (const resource of (property.displayOptions?.show?.resource ?? []) as string[])
			for (const [name, value] of optionsOf(property))
				labels.set(`${resource}/${value}`, `${resources.get(resource)} → ${name}`);
	return labels;
}

function sourceFiles(folder: string): string[] {
	return readdirSync(join(ROOT, folder)).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
		return name.endsWith('.ts') ? [path] : [];
	});
}

test.each(Object.keys(OPERATIONS))('the advice naming %s names it as the panel does', (key) => {
	const { resource, option } = OPERATIONS[key as keyof typeof OPERATIONS];
	const label = `${RESOURCES[resource]} → ${option.name}`;
	expect(panelLabels().get(`${resource}/${option.value}`)).toBe(label);
	expect(operationHint(key as keyof typeof OPERATIONS)).toBe(
		`"${label}" (resource "${resource}", operation "${option.value}")`,
	);
});

test('the operations and resources the advice names are written once: the node takes them from hints.ts', () => {
	/** Where `folder` writes a dropdown entry of this name and value itself. */
	const writtenIn = (folder: string, name: string, value: string) =>
		sourceFiles(folder)
			.filter((file) =>
				new RegExp(`name: '${name}',\\s*value: '${value}'`).test(
					readFileSync(join(ROOT, file), 'utf8'),
				),
			)
			.map((file) => `${file}: ${name} (${value})`);
	const again = [
		...Object.values(OPERATIONS).flatMap(({ resource, option }) =>
			writtenIn(`nodes/SocialContent/actions/${resource}`, option.name, option.value),
		),
		...Object.entries(RESOURCES).flatMap(([value, name]) =>
			writtenIn('nodes/SocialContent', name, value),
		),
	];
	expect(again).toEqual([]);
});

test('every choice the advice names is an option of the node, label and value', () => {
	const options = new Set(
		properties.flatMap((property) =>
			optionsOf(property).map(([name, value]) => `${name}|${value}`),
		),
	);
	const named = ['nodes', 'credentials'].flatMap((folder) =>
		sourceFiles(folder).flatMap((file) =>
			[
				...readFileSync(join(ROOT, file), 'utf8').matchAll(/choiceHint\('([^']+)', '([^']+)'\)/g),
			].map(([, label, value]) => `${label}|${value}`),
		),
	);
	expect(named.length).toBeGreaterThan(0);
	expect(named.filter((choice) => !options.has(choice))).toEqual([]);
});
