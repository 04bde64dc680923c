import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INode, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { nodeTypes } from '../helpers/harness.cjs';

const folder = join(__dirname, '..', '..', 'examples');
const files = readdirSync(folder).filter((file) => file.endsWith('.json'));

describe.each(files)('examples/%s', (file) => {
	const workflow = JSON.parse(readFileSync(join(folder, file), 'utf8')) as {
		name: string;
		nodes: INode[];
		connections: object;
	};

	test('is a workflow n8n can import: name, nodes, connections', () => {
		expect(workflow.name).toMatch(/^Social Content: /);
		expect((workflow as unknown as { id: string }).id).toMatch(/^[a-zA-Z0-9]{16}$/);
		expect(workflow.nodes.length).toBeGreaterThan(1);
		for (const [from, outputs] of Object.entries(workflow.connections)) {
			expect(workflow.nodes.map((node) => node.name)).toContain(from);
			for (const target of (outputs as { main: Array<Array<{ node: string }>> }).main.flat()) {
				expect(workflow.nodes.map((node) => node.name)).toContain(target.node);
			}
		}
	});

	test("this package's nodes have no parameter issues", () => {
		for (const node of workflow.nodes.filter((entry) =>
			entry.type.startsWith('n8n-nodes-social-content.'),
		)) {
			const type = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
			expect(type).toBeDefined();
			const parameters = NodeHelpers.getNodeParameters(
				type.description.properties,
				node.parameters,
				true,
				false,
				node,
				type.description,
			) as INodeParameters;
			const issues = NodeHelpers.getNodeParametersIssues(
				type.description.properties,
				{ ...node, parameters },
				type.description,
			);
			expect({ node: node.name, issues }).toEqual({ node: node.name, issues: null });
		}
	});
});
