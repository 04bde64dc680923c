/**
 * What every family of bench rows shares (bench/rows/): the row a suite records, the in-process
 * sandbox, the action node run once through n8n's WorkflowExecute, and the median.
 * `npm run bench` (bench/run.cts) runs the families' suites and writes the table.
 */
import type { IDataObject } from 'n8n-workflow';

import { ACTION_NODE_TYPE, runChain, START_NODE_TYPE } from '../test/helpers/harness.cjs';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createSandbox } = require('../test/sandbox/server.js');

/** bench/: where the sink, the floor node, the memory trace and the results live. */
export const BENCH_DIR = __dirname;

export interface Row {
	name: string;
	value: number;
	unit: string;
	baseline: number | null;
	ratio: number | null;
	goal: string;
	met: boolean;
}

/** A suite: `npm run bench <name>` runs it alone. */
export interface Suite {
	name: string;
	run: () => Promise<void>;
	/** Its rows' names (a partial run keeps the other suites' rows); else the name's first word. */
	owns?: RegExp;
}

/** The rows of this run, in the order the suites record them. */
export const rows: Row[] = [];
export const log = (line: string) => console.log(`[bench] ${line}`);

/** A sandbox of the service (test/sandbox) with these options, listening while `run` runs. */
export async function withSandbox<T>(
	options: IDataObject,
	run: (url: string, sandbox: IDataObject) => Promise<T>,
): Promise<T> {
	const sandbox = createSandbox(options);
	const url = await sandbox.listen();
	try {
		return await run(url, sandbox);
	} finally {
		await sandbox.close();
	}
}

/** The node (or another node type) run once on `items` through n8n's WorkflowExecute, errors to the output. */
export async function runNode(
	url: string,
	parameters: IDataObject,
	items: IDataObject[],
	type = ACTION_NODE_TYPE,
) {
	return await runChain(
		[
			{ name: 'Start', type: START_NODE_TYPE },
			{
				name: 'Node',
				type,
				parameters: parameters as never,
				credentials: { socialContentApi: { id: '1', name: 'c' } },
				onError: 'continueRegularOutput',
			},
		],
		{
			credentials: { socialContentApi: { instanceUrl: url, apiKey: 'sk_sandbox_demo_key' } },
			input: items,
			settings: { timezone: 'UTC' },
		},
	);
}

/** The middle value (the upper middle of an even count). */
export function median(values: number[]): number {
	return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

export function round(value: number, digits: number): number {
	return Number(value.toFixed(digits));
}
