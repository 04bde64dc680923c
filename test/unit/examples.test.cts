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
		// Every kind of connection: main, and an agent's model and tools (ai_languageModel, ai_tool).
		for (const [from, outputs] of Object.entries(workflow.connections)) {
			expect(workflow.nodes.map((node) => node.name)).toContain(from);
			for (const target of Object.values(
				outputs as Record<string, Array<Array<{ node: string }>>>,
			).flat(2)) {
				expect(workflow.nodes.map((node) => node.name)).toContain(target.node);
			}
		}
	});

	test("this package's nodes have no parameter issues", () => {
		for (const node of workflow.nodes.filter((entry) =>
			entry.type.startsWith('n8n-nodes-social-content.'),
		)) {
			// n8n offers a node to an agent as "<type>Tool", with the node's own parameters.
			const type = nodeTypes.getByNameAndVersion(node.type.replace(/Tool$/, ''), node.typeVersion);
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

test('the agent example: each tool of this package fills only what the model decides with $fromAI, and its name is the tool name', () => {
	const workflow = JSON.parse(
		readFileSync(join(folder, 'agent-with-social-content-tools.json'), 'utf8'),
	) as { nodes: INode[]; connections: Record<string, Record<string, unknown>> };
	const tools = workflow.nodes.filter((node) => node.type.endsWith('.socialContentTool'));
	expect(tools.map((node) => node.name)).toEqual([
		'Get many channels in Social Content',
		'Score a hook in Social Content',
		'Create a post in Social Content',
	]);
	for (const tool of tools)
		expect(Object.keys(workflow.connections[tool.name])).toEqual(['ai_tool']);
	const create = tools[2].parameters as INodeParameters;
	for (const value of [create.type, create.date, create.channels])
		expect(String(value)).toMatch(/^=\{\{ \$fromAI\('\w+', '[^']+', 'string'\) \}\}$/);
});
