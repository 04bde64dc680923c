import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalServer {
	url: string;
	/** Requests received so far, as "METHOD /path". */
	requests: string[];
	close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1, for what nock cannot fake faithfully (resets, timeouts). */
export async function localServer(
	handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<LocalServer> {
	const requests: string[] = [];
	const server: Server = createServer((req, res) => {
		requests.push(`${req.method} ${req.url}`);
		handler(req, res);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** Drops every connection without an answer, as a crashing server or a flaky network would. */
export function resetConnection(req: IncomingMessage): void {
	req.socket.destroy();
}
