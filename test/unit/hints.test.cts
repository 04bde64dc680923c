/**
 * The advice in errors names operations and choices as the panel shows them and as they are sent
 * (nodes/shared/hints.ts). Those names are written out there, so they are held here to the node's
 * description: a renamed operation or choice fails this test instead of leaving stale advice.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeProperties } from 'n8n-workflow';

import { SocialContent } from '../../nodes/SocialContent/SocialContent.node';
import { OPERATIONS, operationHint } from '../../nodes/shared/hints';

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
	const [label, resource, operation] = OPERATIONS[key as keyof typeof OPERATIONS];
	expect(panelLabels().get(`${resource}/${operation}`)).toBe(label);
	expect(operationHint(key as keyof typeof OPERATIONS)).toBe(
		`"${label}" (resource "${resource}", operation "${operation}")`,
	);
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
