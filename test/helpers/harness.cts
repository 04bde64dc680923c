/**
 * Runs workflows through n8n-core's real WorkflowExecute, with this package's nodes and
 * credentials loaded as n8n loads them (credentials resolved through their real `authenticate`
 * and the real OAuth2 request path). Returns each node's output items.
 */
import {
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	PollContext,
	WorkflowExecute,
} from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IConnections,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	IWorkflowSettings,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	createRunExecutionData,
	ICredentialsHelper,
	NodeConnectionTypes,
	NodeHelpers,
	Workflow,
} from 'n8n-workflow';

import { SocialContentApi } from '../../credentials/SocialContentApi.credentials';
import { SocialContentOAuth2Api } from '../../credentials/SocialContentOAuth2Api.credentials';
// Required with the .ts extension: beside each node file sits its codex, `<Name>.node.json`,
// which a plain "<Name>.node" would resolve to under tsx (the benchmarks' runner).
/* eslint-disable @typescript-eslint/no-require-imports */
const { SocialContent } =
	require('../../nodes/SocialContent/SocialContent.node.ts') as typeof import('../../nodes/SocialContent/SocialContent.node');
const { SocialContentTrigger } =
	require('../../nodes/SocialContentTrigger/SocialContentTrigger.node.ts') as typeof import('../../nodes/SocialContentTrigger/SocialContentTrigger.node');
/* eslint-enable @typescript-eslint/no-require-imports */
export { SocialContent };

export const PACKAGE = 'n8n-nodes-social-content';
export const ACTION_NODE_TYPE = `${PACKAGE}.socialContent`;
export const TRIGGER_NODE_TYPE = `${PACKAGE}.socialContentTrigger`;
export const START_NODE_TYPE = 'test.start';

/** Hands the items the test feeds in on to the next node, as a trigger would. */
class StartNode implements INodeType {
	description = {
		displayName: 'Start',
		name: 'start',
		group: ['input'],
		version: 1,
		description: 'Test start node',
		defaults: { name: 'Start' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	} as INodeType['description'];

	async execute(this: import('n8n-workflow').IExecuteFunctions) {
		return [this.getInputData()];
	}
}

const registeredNodeTypes: Record<string, INodeType | IVersionedNodeType> = {
	[ACTION_NODE_TYPE]: new SocialContent(),
	[TRIGGER_NODE_TYPE]: new SocialContentTrigger(),
	[START_NODE_TYPE]: new StartNode(),
};

export function registerNodeType(name: string, nodeType: INodeType | IVersionedNodeType): void {
	registeredNodeTypes[name] = nodeType;
}

export const nodeTypes: INodeTypes = {
	getByName: (type) => registeredNodeTypes[type],
	getByNameAndVersion: (type, version) =>
		NodeHelpers.getVersionedNodeType(registeredNodeTypes[type], version),
	getKnownTypes: () => ({}),
};

export const credentialTypes: Record<string, ICredentialType> = {
	socialContentApi: new SocialContentApi(),
	socialContentOAuth2Api: new SocialContentOAuth2Api(),
};

/** Evaluates n8n expressions outside any run, as n8n does for credential data. */
function expressionWorkflow(): Workflow {
	return new Workflow({ nodes: [], connections: {}, active: false, nodeTypes });
}

/**
 * Our stand-in for n8n's CredentialsHelper: the credential data comes from the test, defaults and
 * `$self` expressions are applied as n8n does, and a generic `authenticate` block is resolved
 * with the expression engine against `$credentials`.
 */
export class TestCredentialsHelper extends ICredentialsHelper {
	/** Token data n8n would write back, by credential type. */
	readonly savedOauthTokenData: Record<string, ICredentialDataDecryptedObject> = {};

	constructor(private readonly data: Record<string, ICredentialDataDecryptedObject>) {
		super();
	}

	getParentTypes(name: string): string[] {
		const type = credentialTypes[name];
		if (!type?.extends) return [];
		return type.extends.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const auth = credentialTypes[typeName]?.authenticate;
		if (!auth) return requestOptions;
		if (typeof auth === 'function') return await auth(credentials, requestOptions);
		const wf = workflow ?? expressionWorkflow();
		const resolve = (value: unknown) =>
			wf.expression.getSimpleParameterValue(node ?? ({} as INode), value as string, 'internal', {
				$credentials: credentials,
			});
		for (const [target, values] of Object.entries(auth.properties)) {
			const into = ((requestOptions as unknown as IDataObject)[target] ??= {}) as IDataObject;
			for (const [key, value] of Object.entries(values as IDataObject))
				into[key] = resolve(value) as string;
		}
		return requestOptions;
	}

	/**
	 * As n8n's CredentialsHelper.preAuthentication (2.41): a credential with a hidden `expirable`
	 * field runs its preAuthentication when that field is empty or after a 401 (`expired`). n8n
	 * also tests for its credential-test node (a noOp with `temp: ''`), which 2.41's tester no
	 * longer builds (its node has no parameters): kept as n8n has it. What it returns is kept only
	 * when it sets the expirable field.
	 */
	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		expired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = credentialTypes[typeName];
		const expirable = type?.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (!expirable || typeof type.preAuthentication !== 'function') return undefined;
		const testing = node.parameters?.temp === '' && node.type === 'n8n-nodes-base.noOp';
		if (credentials[expirable.name] !== '' && !expired && !testing) return undefined;
		const output = await type.preAuthentication.call(helpers, credentials);
		if (output[expirable.name] === undefined) return undefined;
		return Object.assign(credentials, output);
	}

	async runPreAuthentication() {
		return undefined;
	}

	async getCredentials(): Promise<never> {
		throw new Error('getCredentials is not used by these nodes');
	}

	private readonly resolved = new Map<string, ICredentialDataDecryptedObject>();

	async getDecrypted(_additionalData: unknown, _nodeCredentials: unknown, type: string) {
		const given = this.data[type];
		if (!given) throw new Error(`The test gave no credentials of type "${type}"`);
		// Resolved once per type and run, as n8n caches decrypted credentials; a copy each time.
		let resolved = this.resolved.get(type);
		if (!resolved) {
			resolved = withDefaults(type, { ...given, ...this.savedOauthTokenData[type] });
			this.resolved.set(type, resolved);
		}
		return { ...resolved };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(
		_nodeCredentials: unknown,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.savedOauthTokenData[type] = {
			oauthTokenData: data.oauthTokenData,
		} as ICredentialDataDecryptedObject;
		this.resolved.delete(type);
	}

	getCredentialsProperties(type: string) {
		return credentialTypes[type]?.properties ?? [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}
}

/** The credential's property defaults under the given data, `=` expressions resolved with `$self`. */
export function withDefaults(
	type: string,
	given: ICredentialDataDecryptedObject,
): ICredentialDataDecryptedObject {
	const merged: ICredentialDataDecryptedObject = {};
	for (const property of credentialTypes[type]?.properties ?? [])
		merged[property.name] = property.default as string;
	Object.assign(merged, given);
	const wf = expressionWorkflow();
	const resolved: ICredentialDataDecryptedObject = {};
	for (const [key, value] of Object.entries(merged)) {
		resolved[key] =
			typeof value === 'string' && value.startsWith('=')
				? (wf.expression.getParameterValue(
						value,
						null,
						0,
						0,
						'credentials',
						[],
						'internal',
						{},
						undefined,
						false,
						merged,
					) as string)
				: value;
	}
	return resolved;
}

export interface WorkflowNode {
	name: string;
	type: string;
	parameters?: INodeParameters;
	credentials?: INode['credentials'];
	onError?: INode['onError'];
	continueOnFail?: boolean;
}

export interface RunResult {
	run: IRun;
	/** Items of a node's output (0 = main, 1 = error output when enabled). */
	output(nodeName: string, outputIndex?: number): INodeExecutionData[];
	/** The error that stopped the run, if any. */
	error: IRun['data']['resultData']['error'];
	credentialsHelper: TestCredentialsHelper;
}

export interface RunOptions {
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** Items handed to the first node. */
	input?: IDataObject[] | INodeExecutionData[];
	mode?: WorkflowExecuteMode;
	settings?: IWorkflowSettings;
}

export function additionalDataFor(
	credentialsHelper: ICredentialsHelper,
	hooks?: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	const unavailable = (what: string) => () => {
		throw new Error(`${what} is not available in the test harness`);
	};
	return {
		credentialsHelper,
		hooks,
		executeWorkflow: unavailable('executeWorkflow'),
		getRunExecutionData: unavailable('getRunExecutionData'),
		getRuntimeCredential: unavailable('getRuntimeCredential'),
		startRunnerTask: unavailable('startRunnerTask'),
		logAiEvent: () => undefined,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		formBaseUrl: 'http://localhost:5678/form',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		formTestBaseUrl: 'http://localhost:5678/form-test',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		mcpBaseUrl: 'http://localhost:5678/mcp',
		mcpTestBaseUrl: 'http://localhost:5678/mcp-test',
		variables: {},
		userId: 'test-user',
	} as unknown as IWorkflowExecuteAdditionalData;
}

/** Runs `nodes` in a chain (first to last) through WorkflowExecute. */
export async function runChain(
	nodes: WorkflowNode[],
	options: RunOptions = {},
): Promise<RunResult> {
	const fullNodes: INode[] = nodes.map((node, index) => ({
		id: `node-${index}`,
		name: node.name,
		type: node.type,
		typeVersion: 1,
		position: [index * 200, 0],
		parameters: node.parameters ?? {},
		credentials: node.credentials,
		onError: node.onError,
		continueOnFail: node.continueOnFail,
	}));
	const connections: IConnections = {};
	for (let index = 0; index < fullNodes.length - 1; index++) {
		connections[fullNodes[index].name] = {
			main: [[{ node: fullNodes[index + 1].name, type: NodeConnectionTypes.Main, index: 0 }]],
		};
	}
	return await runWorkflow(fullNodes, connections, options);
}

export async function runWorkflow(
	nodes: INode[],
	connections: IConnections,
	options: RunOptions = {},
): Promise<RunResult> {
	const mode = options.mode ?? 'manual';
	const workflow = new Workflow({
		id: 'test-workflow',
		nodes,
		connections,
		active: false,
		nodeTypes,
		settings: options.settings,
	});
	const credentialsHelper = new TestCredentialsHelper(options.credentials ?? {});
	const hooks = new ExecutionLifecycleHooks(mode, 'test-execution', {
		id: 'test-workflow',
		name: 'test',
		active: false,
		activeVersionId: null,
		isArchived: false,
		nodes,
		connections,
		createdAt: new Date(),
		updatedAt: new Date(),
	});
	let resolveRun!: (run: IRun) => void;
	const finished = new Promise<IRun>((resolve) => (resolveRun = resolve));
	hooks.addHandler('workflowExecuteAfter', (run) => resolveRun(run));
	const additionalData = additionalDataFor(credentialsHelper, hooks);

	const startNode = nodes[0];
	const input = (options.input ?? [{}]).map((entry) =>
		'json' in entry && typeof entry.json === 'object'
			? (entry as INodeExecutionData)
			: { json: entry as IDataObject },
	);
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: startNode, data: { main: [input] }, source: null }],
		},
	});
	const workflowExecute = new WorkflowExecute(additionalData, mode, runExecutionData);
	await workflowExecute.processRunExecutionData(workflow);
	const run = await finished;
	assertNoSecrets(run.data.resultData, options.credentials ?? {});
	return {
		run,
		error: run.data.resultData.error,
		credentialsHelper,
		output(nodeName: string, outputIndex = 0) {
			const taskData = run.data.resultData.runData[nodeName];
			if (!taskData) throw new Error(`Node "${nodeName}" did not run`);
			return taskData[taskData.length - 1].data?.main?.[outputIndex] ?? [];
		},
	};
}

/** A poll context for a trigger node, over a workflow whose static data the caller may reuse. */
export function pollContextFor(
	workflow: Workflow,
	nodeName: string,
	credentials: Record<string, ICredentialDataDecryptedObject>,
	mode: WorkflowExecuteMode = 'trigger',
): PollContext {
	const node = workflow.getNode(nodeName);
	if (!node) throw new Error(`No node "${nodeName}"`);
	const additionalData = additionalDataFor(new TestCredentialsHelper(credentials));
	return new PollContext(
		workflow,
		node,
		additionalData,
		mode,
		mode === 'manual' ? 'manual' : 'activate',
	);
}

/** A load-options context (dropdowns, list search) for a node with the given parameters. */
export function loadOptionsContextFor(
	type: string,
	parameters: INodeParameters,
	credentials: Record<string, ICredentialDataDecryptedObject>,
	nodeCredentials: INode['credentials'],
	/** The workflow's time zone (n8n's default, America/New_York, when not given). */
	timezone?: string,
	/** The field being loaded, as the editor names it (e.g. `parameters.settings.setting[0].name`). */
	path = 'parameters',
): LoadOptionsContext {
	const node: INode = {
		id: 'node-0',
		name: 'Node',
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: nodeCredentials,
	};
	const workflow = new Workflow({
		id: 'test-workflow',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
		settings: timezone ? { timezone } : undefined,
	});
	// What the editor sends with a dropdown's request: the panel's parameters as they are now.
	const additionalData = {
		...additionalDataFor(new TestCredentialsHelper(credentials)),
		currentNodeParameters: parameters,
	};
	return new LoadOptionsContext(workflow, node, additionalData, path);
}

let workflowsMade = 0;

/**
 * A workflow holding one trigger node; pass saved static data to simulate a restart. Each gets its
 * own id unless one is given: what the trigger keeps in the process (per workflow) is then that
 * workflow's alone, and a new one made from saved data is a new process's view of it.
 */
export function triggerWorkflow(
	parameters: INodeParameters,
	staticData?: IDataObject,
	workflowId = `trigger-workflow-${++workflowsMade}`,
): Workflow {
	const node: INode = {
		id: 'trigger-0',
		name: 'Trigger',
		type: TRIGGER_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: {
			socialContentApi: { id: '1', name: 'c' },
			socialContentOAuth2Api: { id: '2', name: 'o' },
		},
	};
	return new Workflow({
		id: workflowId,
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes,
		staticData,
		settings: { timezone: 'UTC' },
	});
}

/** One poll of the trigger in that workflow, as n8n runs it (mode 'trigger', or 'manual' for Fetch Test Event). */
export async function poll(
	workflow: Workflow,
	credentials: Record<string, ICredentialDataDecryptedObject>,
	mode: WorkflowExecuteMode = 'trigger',
): Promise<INodeExecutionData[][] | null> {
	const context = pollContextFor(workflow, 'Trigger', credentials, mode);
	const node = workflow.getNode('Trigger')!;
	const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	return await nodeType.poll!.call(context);
}

/**
 * A trigger as n8n keeps it once activated: one poll context for the poll n8n runs at activation and
 * every scheduled poll after it (n8n-core's PollTriggerExecutor does the same). `activation` is why
 * it was activated: 'activate' (a person), 'init' (n8n starting), 'leadershipChange' (multi-main).
 */
export function activeTrigger(
	workflow: Workflow,
	credentials: Record<string, ICredentialDataDecryptedObject>,
	activation: WorkflowActivateMode = 'activate',
	/** The time n8n gives each poll (its durable engine says so; the trigger takes 80 % of it). */
	givenPollBudgetMs?: number,
): { poll: () => Promise<INodeExecutionData[][] | null> } {
	const node = workflow.getNode('Trigger')!;
	const additionalData = additionalDataFor(new TestCredentialsHelper(credentials));
	const context = new PollContext(workflow, node, additionalData, 'trigger', activation);
	if (givenPollBudgetMs !== undefined)
		Object.assign(context, { getPollBudgetMs: () => givenPollBudgetMs });
	const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	return { poll: async () => await nodeType.poll!.call(context) };
}

/** Credential fields whose values must never reach output items, errors or logs. */
const SECRET_FIELDS = ['apiKey', 'clientSecret', 'access_token', 'refresh_token'];

function secretsOf(credentials: Record<string, ICredentialDataDecryptedObject>): string[] {
	const found: string[] = [];
	const visit = (value: unknown, key = '') => {
		if (typeof value === 'string' && SECRET_FIELDS.includes(key) && value.length >= 6)
			found.push(value);
		else if (value && typeof value === 'object')
			for (const [k, v] of Object.entries(value)) visit(v, k);
	};
	visit(credentials);
	return found;
}

/**
 * Every run is checked: no secret of the credentials it used may appear anywhere in what n8n keeps
 * of it (output items, errors with their messages, descriptions and contexts).
 */
export function assertNoSecrets(
	data: unknown,
	credentials: Record<string, ICredentialDataDecryptedObject>,
): void {
	const text = JSON.stringify(data, (_key, value: unknown) =>
		value instanceof Error ? { ...value, message: value.message, stack: value.stack } : value,
	);
	for (const secret of secretsOf(credentials)) {
		if (text.includes(secret))
			throw new Error(`A credential secret (${secret.slice(0, 4)}…) appears in the run data`);
	}
}
