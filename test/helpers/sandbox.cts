/** The sandbox service (test/sandbox/server.js) with its types, for the suites that start it in-process. */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { currentClock } from './clock.cjs';

export interface SandboxState extends IDataObject {
	counts: IDataObject & {
		requests: number;
		uploads: number;
		postsCreated: number;
		generationsStarted: number;
		rateLimited: number;
	};
	posts: IDataObject[];
	generations: IDataObject[];
	channels: IDataObject[];
	media: IDataObject[];
	faults: IDataObject[];
	authHeaders: string[];
	/** Each request to a rate-limited route: when it arrived, and for a 429 the wait it asked (ms). */
	rateLog: Array<{ at: number; askedMs?: number }>;
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
const server = require('../sandbox/server.js') as {
	createSandbox: (options?: IDataObject) => Sandbox;
};

/** The sandbox, on the clock the test's runs take (one that skips waits, in unit and integration tests). */
export function createSandbox(options: IDataObject = {}): Sandbox {
	return server.createSandbox({ clock: currentClock(), ...options });
}

/** A sandbox on 127.0.0.1 for one suite: started before its tests (nock lets 127.0.0.1 through), closed after. */
export interface SuiteSandbox {
	sandbox: Sandbox;
	url: string;
	/** The API-key credential for it. */
	credentials: Record<string, ICredentialDataDecryptedObject>;
}

export function sandboxForSuite(options?: IDataObject): SuiteSandbox {
	const suite = {} as SuiteSandbox;
	beforeAll(async () => {
		nock.enableNetConnect('127.0.0.1');
		suite.sandbox = createSandbox(options);
		suite.url = await suite.sandbox.listen();
		suite.credentials = {
			socialContentApi: { instanceUrl: suite.url, apiKey: 'sk_sandbox_demo_key' },
		};
	});
	afterAll(async () => {
		await suite.sandbox.close();
		nock.restore();
	});
	return suite;
}
