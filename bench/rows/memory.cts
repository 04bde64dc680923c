/**
 * Memory in a real n8n (binary data in filesystem mode): uploading and downloading a 1 GiB file,
 * each over a workflow that brings a file of the same size into n8n without the node.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { BENCH_DIR, median, round, rows, type Suite } from '../harness.cjs';
import { chainWorkflow, growthByRound, MEMORY_ROUNDS, withRealN8n } from '../realN8n.cjs';

/** Upload of a 1 GiB file in a real n8n: peak RSS growth over a workflow that only reads the file. */
async function upload() {
	const sizeMiB = Number(process.env.BENCH_UPLOAD_MIB ?? 1024);
	await withRealN8n(sizeMiB, async (n8n) => {
		const filePath = join(n8n.files, 'big.bin');
		await promisify(execFile)('bash', ['-c', `head -c ${sizeMiB}M /dev/zero > ${filePath}`]);
		const read = {
			name: 'Read',
			type: 'n8n-nodes-base.readWriteFile',
			parameters: { fileSelector: filePath, options: {} },
		};
		const uploadNode = {
			name: 'Upload',
			type: 'n8n-nodes-social-content.socialContent',
			parameters: { resource: 'media', operation: 'upload', binaryPropertyName: 'data' },
		};
		await n8n.importWorkflows([
			chainWorkflow('benchReadOnly000', [read]),
			chainWorkflow('benchReadUpload0', [read, uploadNode]),
		]);
		// As for the download: a median over rounds, each round running both workflows.
		const peaks: Record<string, number[]> = { benchReadOnly000: [], benchReadUpload0: [] };
		for (let round = 0; round < MEMORY_ROUNDS; round++) {
			for (const id of Object.keys(peaks)) peaks[id].push(await n8n.peakMiB(id));
		}
		const readOnly = median(peaks.benchReadOnly000);
		const growth = median(peaks.benchReadUpload0) - readOnly;
		const runs = growthByRound(peaks.benchReadUpload0, peaks.benchReadOnly000);
		const { received } = await n8n.sinkReport();
		const all = sizeMiB * 1024 * 1024 * MEMORY_ROUNDS;
		rows.push({
			name: `upload ${sizeMiB} MiB in n8n: peak RSS growth over reading the file alone (median of ${MEMORY_ROUNDS}; rounds: ${runs})`,
			value: round(growth, 1),
			unit: 'MiB',
			baseline: round(readOnly, 1),
			ratio: null,
			goal: '≤ 64 MiB',
			met: growth <= 64 && received >= all,
		});
		rows.push({
			name: `upload bytes received by the server, ${MEMORY_ROUNDS} uploads`,
			value: received,
			unit: 'bytes',
			baseline: all,
			ratio: round(received / all, 4),
			goal: 'all (multipart adds a few hundred bytes)',
			met: received >= all,
		});
	});
}

/**
 * Download of a 1 GiB studio output in a real n8n (Studio → Get Generation with Download Outputs).
 * The goal's row is measured as the upload row is: over a workflow that brings a file of the same
 * size into n8n (there, Read/Write Files from Disk). The rows after it show what that baseline
 * holds: the same growth for any node, for n8n's own nodes, and for a file 4 times the size.
 */
async function download() {
	const sizeMiB = Number(process.env.BENCH_DOWNLOAD_MIB ?? 1024);
	const largerMiB = sizeMiB * 4;
	await withRealN8n(sizeMiB, async (n8n) => {
		const get = (downloadOutputs: boolean, generationId = 'gen_big') => ({
			name: 'Get',
			type: 'n8n-nodes-social-content.socialContent',
			parameters: {
				resource: 'studio',
				operation: 'getGeneration',
				generationId: { __rl: true, mode: 'id', value: generationId },
				downloadOutputs,
			},
		});
		// n8n's own HTTP Request node saving the same file: what streaming 1 GiB costs any node.
		const httpRequest = {
			name: 'HTTP',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			parameters: {
				url: `${n8n.sinkUrl}/uploads/big.mp4`,
				options: { response: { response: { responseFormat: 'file' } } },
			},
		};
		// The least any node can do: n8n's request helper streaming straight into prepareBinaryData.
		const bare = {
			name: 'Bare',
			type: 'n8n-nodes-bench-floor.bareDownload',
			parameters: { url: `${n8n.sinkUrl}/uploads/big.mp4` },
		};
		// The upload row's baseline: n8n reading a file of the same size from its own disk.
		const filePath = join(n8n.files, 'big.bin');
		await promisify(execFile)('bash', ['-c', `head -c ${sizeMiB}M /dev/zero > ${filePath}`]);
		const readFile = {
			name: 'Read',
			type: 'n8n-nodes-base.readWriteFile',
			parameters: { fileSelector: filePath, options: {} },
		};
		await n8n.importWorkflows([
			chainWorkflow('benchGetOnly0000', [get(false)]),
			chainWorkflow('benchGetDownload', [get(true)]),
			chainWorkflow('benchHttpRequest', [get(false), httpRequest]),
			chainWorkflow('benchBareHelper0', [get(false), bare]),
			chainWorkflow('benchGetReadFile', [get(false), readFile]),
			chainWorkflow('benchGetDownlo4x', [get(true, `gen_big_${largerMiB}`)]),
		]);
		// One run's peak varies by ±15 MiB with when V8 happens to collect: the median of 3,
		// taken in rounds so that each round runs all of them under the same conditions.
		const peaks: Record<string, number[]> = {
			benchGetOnly0000: [],
			benchGetDownload: [],
			benchHttpRequest: [],
			benchBareHelper0: [],
			benchGetReadFile: [],
			benchGetDownlo4x: [],
		};
		for (let round = 0; round < MEMORY_ROUNDS; round++) {
			for (const id of Object.keys(peaks)) peaks[id].push(await n8n.peakMiB(id));
		}
		const getOnly = median(peaks.benchGetOnly0000);
		/** A workflow's growth over Get Generation alone: its median, and each round's. */
		const growthOf = (id: string) => ({
			median: median(peaks[id]) - getOnly,
			rounds: growthByRound(peaks[id], peaks.benchGetOnly0000),
		});
		const { served } = await n8n.sinkReport();
		const allServed = served >= (sizeMiB * 3 + largerMiB) * MEMORY_ROUNDS * 1024 * 1024;
		const node = growthOf('benchGetDownload');
		const diskRead = growthOf('benchGetReadFile');
		const httpGrowth = growthOf('benchHttpRequest');
		const bareGrowth = growthOf('benchBareHelper0');
		const larger = growthOf('benchGetDownlo4x');
		const overDiskRead = growthByRound(peaks.benchGetDownload, peaks.benchGetReadFile);
		rows.push({
			name: `download ${sizeMiB} MiB output in n8n (filesystem binary data), measured as the upload row is: peak RSS growth over a workflow bringing a file of the same size into n8n (Read/Write Files from Disk; median of ${MEMORY_ROUNDS}; rounds: ${overDiskRead})`,
			value: round(node.median - diskRead.median, 1),
			unit: 'MiB',
			baseline: round(median(peaks.benchGetReadFile), 1),
			ratio: null,
			goal: '≤ 64 MiB',
			met: node.median - diskRead.median <= 64 && allServed,
		});
		rows.push({
			name: `download ${sizeMiB} MiB: the same node's growth over Get Generation alone, no file in n8n (rounds: ${node.rounds})`,
			value: round(node.median, 1),
			unit: 'MiB',
			baseline: round(getOnly, 1),
			ratio: null,
			goal: `(what moving ${sizeMiB} MiB through Node costs: see the next four rows)`,
			met: true,
		});
		rows.push({
			name: `download ${sizeMiB} MiB: n8n reading a file of the same size from its own disk, growth over the same run (rounds: ${diskRead.rounds})`,
			value: round(diskRead.median, 1),
			unit: 'MiB',
			baseline: round(getOnly, 1),
			ratio: round(node.median / diskRead.median, 2),
			goal: "(n8n's own floor; ratio = this node / reading from disk)",
			met: true,
		});
		rows.push({
			name: `download ${sizeMiB} MiB: the same file saved by n8n's HTTP Request node (Response Format: File), growth over the same run (rounds: ${httpGrowth.rounds})`,
			value: round(httpGrowth.median, 1),
			unit: 'MiB',
			baseline: round(getOnly, 1),
			ratio: round(node.median / httpGrowth.median, 2),
			goal: '(what any node pays; ratio = this node / HTTP Request)',
			met: true,
		});
		rows.push({
			name: `download ${sizeMiB} MiB: the same file saved by a minimal node (n8n's request helper streamed into prepareBinaryData, bench/floorNode), growth over the same run (rounds: ${bareGrowth.rounds})`,
			value: round(bareGrowth.median, 1),
			unit: 'MiB',
			baseline: round(getOnly, 1),
			ratio: round(node.median / bareGrowth.median, 2),
			goal: '(the floor for any node; ratio = this node / the floor)',
			met: true,
		});
		rows.push({
			name: `download ${largerMiB} MiB by the same node: growth over Get Generation alone (rounds: ${larger.rounds}); ratio = ${largerMiB} MiB / ${sizeMiB} MiB`,
			value: round(larger.median, 1),
			unit: 'MiB',
			baseline: round(node.median, 1),
			ratio: round(larger.median / node.median, 2),
			goal: '(streamed: the growth does not follow the size)',
			met: larger.median <= node.median * 1.25,
		});
		// What the growth is made of: the same download once more, traced from inside n8n.
		const tracePath = join(n8n.files, 'memory-trace.json');
		await n8n.peakMiB('benchGetDownload', {
			NODE_OPTIONS: `--require ${join(BENCH_DIR, 'memoryTrace.js')}`,
			BENCH_MEMORY_TRACE: tracePath,
		});
		const trace = JSON.parse(readFileSync(tracePath, 'utf8')) as {
			highestArrayBuffersMiB: number;
			streamingMs: number;
			collectionsWhileStreaming: Record<string, number>;
		};
		const { young, full, incremental } = trace.collectionsWhileStreaming;
		rows.push({
			name: `download ${sizeMiB} MiB, traced in n8n: most network buffers waiting to be freed at once; collections while streaming (${trace.streamingMs} ms): ${young} young, ${incremental} incremental marking, ${full} full`,
			value: trace.highestArrayBuffersMiB,
			unit: 'MiB',
			baseline: null,
			ratio: null,
			goal: '(what the growth is: buffers already written out, freed only by full collections)',
			met: true,
		});
	});
}

export const suites: Suite[] = [
	{ name: 'upload', run: upload },
	{ name: 'download', run: download },
];
