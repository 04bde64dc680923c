/**
 * Per-item overhead in this process: the Hook Score node against a raw `fetch` loop, and against
 * n8n's own request helper in a bare loop (the goal, #13).
 */
import type { IDataObject, IExecuteFunctions, INodeType } from 'n8n-workflow';

import { NodeConnectionTypes } from 'n8n-workflow';

import { registerNodeType } from '../../test/helpers/harness.cjs';
import { median, round, rows, runNode, withSandbox, type Suite } from '../harness.cjs';

/** The floor any n8n node pays: n8n's own authenticated request helper in a bare loop. */
class HelperLoop implements INodeType {
	description = {
		displayName: 'Helper Loop',
		name: 'helperLoop',
		group: ['transform'],
		version: 1,
		description: '',
		defaults: { name: 'Helper Loop' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'socialContentApi', required: true }],
		properties: [],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions) {
		const items = this.getInputData();
		const credentials = await this.getCredentials('socialContentApi');
		for (const item of items) {
			item.json = (await this.helpers.httpRequestWithAuthentication.call(this, 'socialContentApi', {
				method: 'POST',
				url: `${String(credentials.instanceUrl)}/api/public/v1/hooks/score`,
				body: { text: item.json.text },
				json: true,
			})) as IDataObject;
		}
		return [items];
	}
}
registerNodeType('bench.helperLoop', new HelperLoop());

/** Per-item overhead: the node against a raw fetch loop making the same requests. */
async function overhead() {
	const n = 400;
	await withSandbox(
		{ buckets: { default: { limit: 1e9 }, hooks: { limit: 1e9 } } },
		async (url) => {
			const raw = async () => {
				const started = performance.now();
				for (let i = 0; i < n; i++) {
					const response = await fetch(`${url}/api/public/v1/hooks/score`, {
						method: 'POST',
						headers: {
							Authorization: 'sk_sandbox_demo_key',
							'Content-Type': 'application/json',
							Accept: 'application/json',
						},
						body: JSON.stringify({ text: `hook ${i}` }),
					});
					await response.json();
				}
				return performance.now() - started;
			};
			const node = async () => {
				const started = performance.now();
				const result = await runNode(
					url,
					{ resource: 'hook', operation: 'score', text: '={{ $json.text }}' },
					Array.from({ length: n }, (_, i) => ({ text: `hook ${i}` })),
				);
				if (result.error || result.output('Node').some((item) => item.json.error))
					throw new Error('overhead run failed');
				return performance.now() - started;
			};
			const helper = async () => {
				const started = performance.now();
				const result = await runNode(
					url,
					{},
					Array.from({ length: n }, (_, i) => ({ text: `hook ${i}` })),
					'bench.helperLoop',
				);
				if (result.error) throw new Error('helper loop failed');
				return performance.now() - started;
			};
			await raw();
			await node();
			await helper();
			const rawTimes: number[] = [];
			const nodeTimes: number[] = [];
			const helperTimes: number[] = [];
			for (let round = 0; round < 5; round++) {
				rawTimes.push(await raw());
				nodeTimes.push(await node());
				helperTimes.push(await helper());
			}
			const nodeMs = median(nodeTimes) / n;
			const rawMs = median(rawTimes) / n;
			const helperMs = median(helperTimes) / n;
			rows.push({
				name: `per-item time, Hook Score node, ${n} items vs raw fetch loop (median of 5)`,
				value: round(nodeMs, 3),
				unit: 'ms/item',
				baseline: round(rawMs, 3),
				ratio: round(nodeMs / rawMs, 2),
				// #6 set ≤ 1.15 × fetch; a node must send through n8n's request helper, so #13 made the
				// next row the goal. This row shows what sending through n8n costs.
				goal: "(for comparison: a node sends through n8n's request helper; the goal is the next row's, #13)",
				met: true,
			});
			rows.push({
				name: `per-item time, same node vs n8n's request helper in a bare loop`,
				value: round(nodeMs, 3),
				unit: 'ms/item',
				baseline: round(helperMs, 3),
				ratio: round(nodeMs / helperMs, 2),
				goal: '≤ 1.10 × the bare helper',
				met: nodeMs / helperMs <= 1.1,
			});
		},
	);
}

export const suites: Suite[] = [{ name: 'overhead', run: overhead, owns: /^per-item/ }];
