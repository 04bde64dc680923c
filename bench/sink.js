// The service's side of the upload and download benchmarks, in its own process so its memory is
// not counted. Upload: drains each request body, counts the bytes, answers like POST /upload.
// Download: GET …/studio/generations/gen_big is a done generation whose one output,
// /uploads/big.mp4, is SINK_FILE_MIB MiB of zeros, sent in 1 MiB chunks; gen_big_<n> the same
// with an output of n MiB (/uploads/big_<n>.mp4), to show the growth does not follow the size.
'use strict';
const http = require('node:http');
const fileBytes = Number(process.env.SINK_FILE_MIB ?? 1024) * 1024 * 1024;
let received = 0;
let served = 0;
const server = http.createServer((req, res) => {
	const generation = req.method === 'GET' && /\/studio\/generations\/gen_big(_\d+)?$/.exec(req.url);
	if (generation) {
		const suffix = generation[1] ?? '';
		res.writeHead(200, { 'Content-Type': 'application/json' });
		return res.end(
			JSON.stringify({
				id: `gen_big${suffix}`,
				status: 'done',
				outputs: [{ id: `med_big${suffix}`, path: `/uploads/big${suffix}.mp4` }],
			}),
		);
	}
	const file = req.method === 'GET' && /^\/uploads\/big(?:_(\d+))?\.mp4$/.exec(req.url);
	if (file) {
		const bytes = file[1] ? Number(file[1]) * 1024 * 1024 : fileBytes;
		res.writeHead(200, { 'Content-Type': 'video/mp4', 'Content-Length': bytes });
		const chunk = Buffer.alloc(1024 * 1024);
		let left = bytes;
		const pump = () => {
			while (left > 0) {
				const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
				left -= part.length;
				served += part.length;
				if (!res.write(part)) return res.once('drain', pump);
			}
			res.end();
		};
		return pump();
	}
	let bytes = 0;
	req.on('data', (chunk) => (bytes += chunk.length));
	req.on('end', () => {
		received += bytes;
		res.writeHead(200, { 'Content-Type': 'application/json' });
		res.end(JSON.stringify({ id: 'med_bench', path: '/uploads/bench.bin', receivedBytes: bytes }));
	});
});
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));
process.on('message', (message) => {
	if (message === 'report') process.send?.({ received, served });
});
