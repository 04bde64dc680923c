/**
 * A real n8n for the rows measured in n8n (memory, per-item time): n8n 2.41.1 installed by
 * scripts/n8n-runtime.js, the package and the bench-only floor node in it, the sink beside it.
 */
import { execFile, fork } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import type { IDataObject } from 'n8n-workflow';

import { BENCH_DIR, round } from './harness.cjs';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const runtime = require('../scripts/n8n-runtime.js');

/**
 * A real n8n (binary data in filesystem mode) with the package installed and a credential for the
 * sink (bench/sink.js), for the memory rows: each workflow runs through `n8n execute` under
 * /usr/bin/time, which reports the process's peak RSS.
 */
export async function withRealN8n<T>(
	fileMiB: number,
	run: (n8n: RealN8n) => Promise<T>,
): Promise<T> {
	const { nodeBin, n8nBin } = runtime.installN8n();
	const work = mkdtempSync(join(tmpdir(), 'sc-bench-'));
	const files = join(work, 'files');
	mkdirSync(files);
	const sink = fork(join(BENCH_DIR, 'sink.js'), {
		env: { ...process.env, SINK_FILE_MIB: String(fileMiB) },
	});
	const port = await new Promise<number>((resolve) =>
		sink.once('message', (message: { port: number }) => resolve(message.port)),
	);
	const userFolder = join(work, 'n8n');
	mkdirSync(userFolder);
	runtime.installPackage(userFolder);
	// Beside it, the bench-only floor node (bench/floorNode): never part of the package.
	cpSync(
		join(BENCH_DIR, 'floorNode'),
		join(userFolder, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-bench-floor'),
		{ recursive: true },
	);
	const env = runtime.n8nEnv(nodeBin, userFolder, 5999, 6999, {
		N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
		N8N_RESTRICT_FILE_ACCESS_TO: files,
		N8N_LOG_LEVEL: 'info',
	});
	const cli = async (args: string[], extraEnv: NodeJS.ProcessEnv = {}) =>
		(await promisify(execFile)('/usr/bin/time', ['-f', 'MAXRSS_KB=%M', n8nBin, ...args], {
			cwd: userFolder,
			env: { ...env, ...extraEnv },
			maxBuffer: 256 * 1024 * 1024,
		})) as { stdout: string; stderr: string };
	writeFileSync(
		join(work, 'creds.json'),
		JSON.stringify([
			{
				id: 'benchCred',
				name: 'bench',
				type: 'socialContentApi',
				data: { instanceUrl: `http://127.0.0.1:${port}`, apiKey: 'k' },
			},
			{
				id: 'benchHeader',
				name: 'header',
				type: 'httpHeaderAuth',
				data: { name: 'Authorization', value: 'k' },
			},
		]),
	);
	await cli(['import:credentials', `--input=${join(work, 'creds.json')}`]);
	const n8n: RealN8n = {
		files,
		sinkUrl: `http://127.0.0.1:${port}`,
		async importWorkflows(workflows) {
			writeFileSync(join(work, 'wf.json'), JSON.stringify(workflows));
			await cli(['import:workflow', `--input=${join(work, 'wf.json')}`]);
		},
		async peakMiB(id, extraEnv) {
			const { stdout, stderr } = await cli(['execute', `--id=${id}`], extraEnv);
			if (!stdout.includes('Execution was successful'))
				throw new Error(
					`bench workflow ${id} failed: ${stdout.slice(-2000)} ${stderr.slice(-2000)}`,
				);
			return Number(/MAXRSS_KB=(\d+)/.exec(stderr)?.[1]) / 1024;
		},
		async runData(id) {
			const { stdout } = await cli(['execute', `--id=${id}`, '--rawOutput']);
			const json = stdout.slice(stdout.indexOf('{'));
			return (JSON.parse(json) as { data: { resultData: { runData: IDataObject } } }).data
				.resultData.runData;
		},
		async sinkReport() {
			return await new Promise((resolve) => {
				sink.once('message', (message: { received: number; served: number }) => resolve(message));
				sink.send('report');
			});
		},
	};
	try {
		return await run(n8n);
	} finally {
		sink.kill();
		rmSync(work, { recursive: true, force: true });
	}
}

export interface RealN8n {
	/** A folder n8n may read files from. */
	files: string;
	importWorkflows(workflows: IDataObject[]): Promise<void>;
	/** Runs a workflow by id; its process's peak RSS in MiB. */
	peakMiB(id: string, extraEnv?: NodeJS.ProcessEnv): Promise<number>;
	/** Runs a workflow by id; its run data (per node: execution time, items). */
	runData(id: string): Promise<IDataObject>;
	/** The sink's address (bench/sink.js answers any other POST with JSON). */
	sinkUrl: string;
	sinkReport(): Promise<{ received: number; served: number }>;
}

/** A workflow: a manual trigger, then the given nodes in a row (the package's nodes use the bench credential). */
export function chainWorkflow(
	id: string,
	nodes: Array<{ name: string; type: string; typeVersion?: number; parameters: IDataObject }>,
): IDataObject {
	const all = [{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} }, ...nodes];
	return {
		id,
		name: id,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: all.map((node, index) => ({
			id: String(index),
			name: node.name,
			type: node.type,
			typeVersion: node.typeVersion ?? 1,
			position: [index * 200, 0],
			parameters: node.parameters,
			...(node.type.startsWith('n8n-nodes-social-content.')
				? { credentials: { socialContentApi: { id: 'benchCred', name: 'bench' } } }
				: {}),
		})),
		connections: Object.fromEntries(
			all
				.slice(0, -1)
				.map((node, index) => [
					node.name,
					{ main: [[{ node: all[index + 1].name, type: 'main', index: 0 }]] },
				]),
		),
	};
}

/** Rounds of the memory rows (upload, download): one run's peak varies by ±15 MiB with when V8 collects. */
export const MEMORY_ROUNDS = Number(process.env.BENCH_MEMORY_ROUNDS ?? 3);

/** Each round's growth of a workflow's peak over its baseline's peak in the same round, for a row's name. */
export function growthByRound(peaks: number[], baselinePeaks: number[]): string {
	return peaks.map((peak, index) => round(peak - baselinePeaks[index], 1)).join(', ');
}
