/**
 * n8n's three poll engines, as n8n 2.41.1 drives a poll trigger (read in its n8n-core
 * `active-workflow-triggers.js`, `poll-trigger-executor.js` and the cli's
 * `scheduling/poll-trigger-node/poll-trigger-task-handler.js`, `workflows/triggers/`), over the
 * real PollContext and the node's real poll(): what is saved when, and which context each poll gets.
 *
 * - classic: one context per activation; its first poll runs at activation (a throw fails the
 *   activation); the workflow's static data is saved after activation and when a poll emits.
 * - durable: the durable scheduler. Activation runs one poll on the activation path (as classic);
 *   each scheduled poll gets a new context over the workflow as saved, in activation mode
 *   'update' with a poll budget, saved only when it emits. No poll at n8n's start.
 * - durableCursors: as durable, but the node's static data is a cursor kept apart: committed when
 *   a scheduled poll returns (emitting or not) or an activation poll emits; never by a throw.
 */
import { PollContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	WorkflowActivateMode,
} from 'n8n-workflow';

import {
	additionalDataFor,
	nodeTypes,
	TestCredentialsHelper,
	triggerWorkflow,
} from './harness.cjs';

export type Engine = 'classic' | 'durable' | 'durableCursors';
export const ENGINES: Engine[] = ['classic', 'durable', 'durableCursors'];

/** What n8n's durable engine gives a scheduled poll by default: 45 s timeout less its margin. */
const DURABLE_POLL_BUDGET_MS = 36_000;

type PollResult = INodeExecutionData[][] | null;

let simulatedProcesses = 0;

const clone = <T,>(value: T): T => JSON.parse(JSON.stringify(value ?? {})) as T;

export class SimulatedN8n {
	/** What the database holds: the workflow's static data and (durable cursors) the node's cursor. */
	saved: IDataObject = {};
	cursor: IDataObject | undefined;
	/** Errors reported by scheduled polls (error executions), and failed activations. */
	pollErrors: Error[] = [];
	activationErrors: Error[] = [];
	private classicContext?: {
		poll: () => Promise<PollResult>;
		workflow: ReturnType<typeof triggerWorkflow>;
	};
	active = false;
	/** The id of the API-key credential the trigger node uses (another one: another account). */
	credentialId = '1';
	/** The budget the durable engine gives each scheduled poll (ms). */
	durablePollBudgetMs = DURABLE_POLL_BUDGET_MS;
	/** The workflow's id in this n8n process: a restart makes a new process, which knows nothing of the last. */
	private workflowId = `n8n-process-${++simulatedProcesses}`;

	constructor(
		readonly engine: Engine,
		private readonly parameters: INodeParameters,
		private readonly credentials: Record<string, ICredentialDataDecryptedObject>,
	) {}

	/** Activates the workflow (a person, or n8n's start with 'init'): runs the activation poll where n8n does. */
	async activate(mode: WorkflowActivateMode = 'activate'): Promise<PollResult> {
		this.active = true;
		const workflow = this.workflow();
		const node = workflow.getNode('Trigger')!;
		const snapshot = this.engine === 'durableCursors' ? this.cursorSnapshot(workflow) : undefined;
		const context = this.context(workflow, mode, snapshot);
		const poll = async () =>
			await nodeTypes.getByNameAndVersion(node.type, node.typeVersion).poll!.call(context);
		if (this.engine === 'classic') this.classicContext = { poll, workflow };
		// The durable engine polls at activation only when it inserts the job (not at n8n's start).
		if (this.engine !== 'classic' && mode === 'init') return null;
		let result: PollResult = null;
		try {
			result = await poll();
		} catch (error) {
			this.activationErrors.push(error as Error);
			this.active = false;
			throw error;
		}
		if (result !== null && snapshot) this.cursor = clone(snapshot);
		this.saved = clone(workflow.staticData); // saved after activation, whatever the poll returned
		return result;
	}

	/** A scheduled poll; a thrown error is what n8n records as an error execution. */
	async poll(): Promise<PollResult> {
		if (!this.active) throw new Error('not active');
		if (this.engine === 'classic') {
			const { poll, workflow } = this.classicContext!;
			try {
				const result = await poll();
				if (result !== null) this.saved = clone(workflow.staticData);
				return result;
			} catch (error) {
				this.pollErrors.push(error as Error);
				return null;
			}
		}
		const workflow = this.workflow();
		const node = workflow.getNode('Trigger')!;
		const snapshot = this.engine === 'durableCursors' ? this.cursorSnapshot(workflow) : undefined;
		const context = this.context(workflow, 'update', snapshot, () => this.durablePollBudgetMs);
		try {
			const result = await nodeTypes
				.getByNameAndVersion(node.type, node.typeVersion)
				.poll!.call(context);
			if (snapshot) this.cursor = clone(snapshot);
			if (result !== null) this.saved = clone(workflow.staticData);
			return result;
		} catch (error) {
			this.pollErrors.push(error as Error);
			return null;
		}
	}

	/** Two polls of one trigger at once: the classic engine starts a tick's poll with no check for the last one. */
	async overlappingPolls(): Promise<[PollResult, PollResult]> {
		return (await Promise.all([this.poll(), this.poll()])) as [PollResult, PollResult];
	}

	/** n8n stops and starts again: the trigger is activated anew ('init') from what the database holds. */
	async restart(): Promise<PollResult> {
		this.classicContext = undefined;
		this.workflowId = `n8n-process-${++simulatedProcesses}`;
		return await this.activate('init');
	}

	deactivate(): void {
		this.active = false;
		this.classicContext = undefined;
	}

	/** The workflow as the database holds it, in this process. */
	private workflow(): ReturnType<typeof triggerWorkflow> {
		const workflow = triggerWorkflow(this.parameters, clone(this.saved), this.workflowId);
		workflow.getNode('Trigger')!.credentials!.socialContentApi.id = this.credentialId;
		return workflow;
	}

	private cursorSnapshot(workflow: ReturnType<typeof triggerWorkflow>): IDataObject {
		// The cursor row is created from the node's static data the first time, then lives apart.
		this.cursor ??= clone(workflow.getStaticData('node', workflow.getNode('Trigger')!));
		return clone(this.cursor);
	}

	private context(
		workflow: ReturnType<typeof triggerWorkflow>,
		activation: WorkflowActivateMode,
		snapshot?: IDataObject,
		budget?: () => number,
	): PollContext {
		const node = workflow.getNode('Trigger')!;
		const additionalData = additionalDataFor(new TestCredentialsHelper(this.credentials));
		return new PollContext(
			workflow,
			node,
			additionalData,
			'trigger',
			activation,
			undefined,
			undefined,
			undefined,
			undefined,
			snapshot ? () => snapshot : undefined,
			budget,
		);
	}
}
