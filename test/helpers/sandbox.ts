/** The sandbox service (test/sandbox/server.js) with its types, for the suites that start it in-process. */
import type { IDataObject } from 'n8n-workflow';

export interface SandboxState extends IDataObject {
	counts: IDataObject & { requests: number; uploads: number; postsCreated: number; generationsStarted: number; rateLimited: number };
	posts: IDataObject[];
	generations: IDataObject[];
	channels: IDataObject[];
	media: IDataObject[];
	faults: IDataObject[];
	authHeaders: string[];
	credits: number;
}

export interface Sandbox {
	config: IDataObject;
	/** Finishes these generations now, in this order. */
	finish(ids: string[]): void;
	state: SandboxState;
	reset(): void;
	listen(port?: number): Promise<string>;
	close(): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const { createSandbox } = require('../sandbox/server.js') as { createSandbox: (options?: IDataObject) => Sandbox };
