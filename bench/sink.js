// A receiver for the upload benchmark, in its own process so its memory is not counted: it drains
// each request body, counts the bytes, and answers like the service's POST /upload.
'use strict';
const http = require('node:http');
let received = 0;
const server = http.createServer((req, res) => {
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
	if (message === 'report') process.send?.({ received });
});
