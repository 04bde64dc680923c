import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';
import nock from 'nock';

import {
	ACTION_NODE_TYPE,
	loadOptionsContextFor,
	registerNodeType,
	runChain,
	START_NODE_TYPE,
	type RunResult,
	type WorkflowNode,
} from './harness.cjs';
import { PROBE_NODE_TYPE, TransportProbe } from './probeNode.cjs';

export { formatInputs, startGeneration } from './parameters.cjs';

registerNodeType(PROBE_NODE_TYPE, new TransportProbe());

export const APP_URL = 'https://app.example.com';
export const API_PATH = '/api/public/v1';
import { API_KEY, OAUTH_TOKEN } from './secrets.cjs';

export { API_KEY, OAUTH_TOKEN };

export const apiKeyCredentials: Record<string, ICredentialDataDecryptedObject> = {
	socialContentApi: { instanceUrl: APP_URL, apiKey: API_KEY },
};

export const oauth2Credentials: Record<string, ICredentialDataDecryptedObject> = {
	socialContentOAuth2Api: {
		instanceUrl: APP_URL,
		clientId: 'client-123',
		clientSecret: 'client-secret-456',
		oauthTokenData: { access_token: OAUTH_TOKEN, token_type: 'bearer' },
	},
};

/** nock scope on the API base, expecting the raw API key. */
export function api(options: { token?: string } = {}): nock.Scope {
	return nock(APP_URL, {
		reqheaders: { authorization: options.token ?? API_KEY },
	}).replyContentLength();
}

/** The organization GET /agents/ping reports (a test sets another to play another account's key). */
export const pingAnswer: { organization: unknown } = { organization: 'org_1' };

/** GET /agents/ping, which the trigger reads each poll to know whose list it reads. */
export function servePing(): nock.Scope {
	return nock(APP_URL)
		.get(`${API_PATH}/agents/ping`)
		.reply(() => [200, { ok: true, organization: pingAnswer.organization, tools: [] }])
		.persist();
}

export interface ActionOptions {
	items?: IDataObject[];
	authentication?: 'apiKey' | 'oAuth2';
	onError?: WorkflowNode['onError'];
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	nodeType?: string;
	/** The workflow's timezone; UTC unless a test says otherwise. */
	timezone?: string;
}

export const NODE = 'Social Content';

/** Runs Start → Social Content (or another node type) with the given parameters. */
export async function runAction(
	parameters: INodeParameters,
	options: ActionOptions = {},
): Promise<RunResult> {
	const authentication = options.authentication ?? 'apiKey';
	const credentialType =
		authentication === 'apiKey' ? 'socialContentApi' : 'socialContentOAuth2Api';
	return await runChain(
		[
			{ name: 'Start', type: START_NODE_TYPE },
			{
				name: NODE,
				type: options.nodeType ?? ACTION_NODE_TYPE,
				parameters: { authentication, ...parameters },
				credentials: { [credentialType]: { id: '1', name: 'test credential' } },
				onError: options.onError,
			},
		],
		{
			credentials:
				options.credentials ??
				(authentication === 'apiKey' ? apiKeyCredentials : oauth2Credentials),
			input: options.items,
			settings: { timezone: options.timezone ?? 'UTC' },
		},
	);
}

/** Sends one request through the transport via the probe node. */
export async function probe(
	request: { method?: string; path: string; body?: IDataObject; download?: boolean },
	options: ActionOptions & { requestOptions?: IDataObject } = {},
): Promise<RunResult> {
	return await runAction(
		{
			// The probe inherits the action node's fields; these keep their required ones hidden.
			resource: 'account',
			operation: 'checkConnection',
			method: request.method ?? 'GET',
			path: request.path,
			body: request.body ? JSON.stringify(request.body) : '',
			download: request.download ?? false,
			requestOptions: (options.requestOptions ?? {}) as INodeParameters,
		},
		{ ...options, nodeType: PROBE_NODE_TYPE },
	);
}

/** Everything a user could see of an error, as one string, to search for secrets and wording. */
export function errorText(result: RunResult): string {
	const error = result.error as (Error & { description?: string; context?: unknown }) | undefined;
	if (!error) return '';
	return [
		error.message,
		error.description ?? '',
		JSON.stringify(error),
		JSON.stringify(error.context ?? {}),
	].join('\n');
}

// In jest only: the bench (bench/rows/triggerBacklog.cts) drives the service world, which takes
// these fixtures, outside it.
if (typeof beforeEach === 'function') {
	beforeEach(() => {
		nock.disableNetConnect();
	});

	afterEach(() => {
		nock.cleanAll();
	});

	// Each test file loads its own copy of nock; switch this one off when the file is done, so
	// that it does not catch the next file's requests in the same worker.
	afterAll(() => {
		nock.restore();
	});
}

/** A dropdown's context in the editor: the action node with an API key (and these parameters). */
export function editorContext(parameters: INodeParameters = {}, timeZone?: string) {
	return loadOptionsContextFor(
		ACTION_NODE_TYPE,
		{ authentication: 'apiKey', ...parameters },
		apiKeyCredentials,
		{ socialContentApi: { id: '1', name: 'c' } },
		timeZone,
	);
}
