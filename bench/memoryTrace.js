// Preloaded into one n8n run of the download bench (NODE_OPTIONS=--require): the most network
// buffers (arrayBuffers) waiting to be freed at once, and which garbage collections ran while the
// file streamed (from the first to the last moment more than 4 MiB of them were waiting). Written
// as JSON to BENCH_MEMORY_TRACE at exit. Samples every 10 ms.
'use strict';
const { writeFileSync } = require('node:fs');
const { performance, PerformanceObserver, constants } = require('node:perf_hooks');

const mib = (bytes) => Math.round((bytes / 2 ** 20) * 10) / 10;
let highestArrayBuffersMiB = 0;
const streaming = { from: Infinity, to: -Infinity };
const collections = [];
const sample = () => {
	const memory = process.memoryUsage();
	const arrayBuffersMiB = mib(memory.arrayBuffers);
	highestArrayBuffersMiB = Math.max(highestArrayBuffersMiB, arrayBuffersMiB);
	if (arrayBuffersMiB > 4) {
		streaming.from = Math.min(streaming.from, performance.now());
		streaming.to = performance.now();
	}
};
setInterval(sample, 10).unref();
const kinds = {
	[constants.NODE_PERFORMANCE_GC_MINOR]: 'young',
	[constants.NODE_PERFORMANCE_GC_MAJOR]: 'full',
	[constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
};
new PerformanceObserver((list) => {
	for (const entry of list.getEntries())
		collections.push({ at: entry.startTime, kind: kinds[entry.detail?.kind] ?? 'other' });
}).observe({ entryTypes: ['gc'] });
process.on('exit', () => {
	sample();
	const during = { young: 0, full: 0, incremental: 0, other: 0 };
	for (const { at, kind } of collections)
		if (at >= streaming.from && at <= streaming.to) during[kind]++;
	writeFileSync(
		process.env.BENCH_MEMORY_TRACE,
		JSON.stringify({
			highestArrayBuffersMiB,
			streamingMs: Math.round(streaming.to - streaming.from),
			collectionsWhileStreaming: during,
		}),
	);
});
