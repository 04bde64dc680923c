/**
 * Per-item time in a real n8n, where a credential costs what it costs in production: this node
 * against n8n's HTTP Request node.
 */
import type { IDataObject } from 'n8n-workflow';

import { log, median, round, rows, type Suite } from '../harness.cjs';
import { withRealN8n } from '../realN8n.cjs';

/**
 * Per-item time in a real n8n, where a credential costs what it costs in production: 1,000 Score
 * POSTs by this node, and by n8n's HTTP Request node with a Header Auth credential and with the
 * header typed as a plain parameter. One workflow fans the same 1,000 items out to each node twice
 * (the first round warms up); each node's own execution time is read from the run data, median
 * over three runs of the workflow.
 */
async function n8nPerItem() {
	const n = Number(process.env.BENCH_N8N_ITEMS ?? 1000);
	await withRealN8n(1, async (n8n) => {
		const url = `${n8n.sinkUrl}/api/public/v1/hooks/score`;
		const httpRequest = (withCredential: boolean) => ({
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			parameters: {
				method: 'POST',
				url,
				...(withCredential
					? { authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth' }
					: {
							sendHeaders: true,
							headerParameters: { parameters: [{ name: 'Authorization', value: 'k' }] },
						}),
				sendBody: true,
				bodyParameters: { parameters: [{ name: 'text', value: '={{ $json.text }}' }] },
				options: {},
			},
			...(withCredential
				? { credentials: { httpHeaderAuth: { id: 'benchHeader', name: 'header' } } }
				: {}),
		});
		const measured: Record<
			string,
			{ type: string; typeVersion: number; parameters: IDataObject; credentials?: IDataObject }
		> = {
			'this node': {
				type: 'n8n-nodes-social-content.socialContent',
				typeVersion: 1,
				parameters: { resource: 'hook', operation: 'score', text: '={{ $json.text }}' },
				credentials: { socialContentApi: { id: 'benchCred', name: 'bench' } },
			},
			'this node, 10 concurrent': {
				type: 'n8n-nodes-social-content.socialContent',
				typeVersion: 1,
				parameters: {
					resource: 'hook',
					operation: 'score',
					text: '={{ $json.text }}',
					requestOptions: { concurrency: 10 },
				},
				credentials: { socialContentApi: { id: 'benchCred', name: 'bench' } },
			},
			'HTTP Request, Header Auth credential': httpRequest(true),
			'HTTP Request, header as a parameter': httpRequest(false),
		};
		const nodes: IDataObject[] = [
			{
				id: 's',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'l',
				name: 'List',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [200, 0],
				parameters: {
					mode: 'raw',
					jsonOutput: `={{ { "texts": Array.from({ length: ${n} }, (_, i) => "hook " + i) } }}`,
					options: {},
				},
			},
			{
				id: 'x',
				name: 'Items',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [400, 0],
				parameters: { fieldToSplitOut: 'texts', options: { destinationFieldName: 'text' } },
			},
		];
		const names: string[] = [];
		for (const round of ['warm-up', 'measured']) {
			for (const [label, node] of Object.entries(measured)) {
				const name = `${label} (${round})`;
				names.push(name);
				nodes.push({
					id: String(nodes.length),
					name,
					position: [600, nodes.length * 100],
					...node,
				});
			}
		}
		const workflow = {
			id: 'benchPerItem0000',
			name: 'per item',
			active: false,
			settings: { executionOrder: 'v1' },
			nodes,
			connections: {
				Start: { main: [[{ node: 'List', type: 'main', index: 0 }]] },
				List: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
				Items: { main: [names.map((node) => ({ node, type: 'main', index: 0 }))] },
			},
		};
		await n8n.importWorkflows([workflow]);
		const times: Record<string, number[]> = {};
		for (let run = 0; run < 3; run++) {
			const runData = await n8n.runData('benchPerItem0000');
			for (const label of Object.keys(measured)) {
				const [task] = runData[`${label} (measured)`] as Array<{
					executionTime: number;
					data: { main: unknown[][] };
				}>;
				if (task.data.main[0].length !== n)
					throw new Error(`${label}: ${task.data.main[0].length} items out of ${n}`);
				(times[label] ??= []).push(task.executionTime / n);
			}
		}
		const ms = Object.fromEntries(
			Object.entries(times).map(([label, values]) => [label, median(values)]),
		);
		const withCredential = ms['HTTP Request, Header Auth credential'];
		const plain = ms['HTTP Request, header as a parameter'];
		log(`n8n per item (ms): ${JSON.stringify(ms)}`);
		rows.push({
			name: `n8n per-item time, ${n} Score POSTs: this node vs HTTP Request with a Header Auth credential (median of 3)`,
			value: round(ms['this node'], 3),
			unit: 'ms/item',
			baseline: round(withCredential, 3),
			ratio: round(ms['this node'] / withCredential, 2),
			goal: '≤ 0.5 × HTTP Request with a credential',
			met: ms['this node'] / withCredential <= 0.5,
		});
		rows.push({
			name: `n8n per-item time, same: this node vs HTTP Request with the header as a plain parameter`,
			value: round(ms['this node'], 3),
			unit: 'ms/item',
			baseline: round(plain, 3),
			ratio: round(ms['this node'] / plain, 2),
			goal: '(the floor)',
			met: true,
		});
		rows.push({
			name: `n8n per-item time, same: this node at 10 concurrent vs HTTP Request with a Header Auth credential`,
			value: round(ms['this node, 10 concurrent'], 3),
			unit: 'ms/item',
			baseline: round(withCredential, 3),
			ratio: round(ms['this node, 10 concurrent'] / withCredential, 2),
			goal: '(for comparison)',
			met: true,
		});
	});
}

export const suites: Suite[] = [{ name: 'n8nPerItem', run: n8nPerItem, owns: /^n8n per-item/ }];
