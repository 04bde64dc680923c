import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { MAIN_CONNECTION } from '../SocialContent/compat';
import { authenticationProperty, credentialsFor } from '../SocialContent/descriptions';
import { loadOptions } from '../SocialContent/methods';
import { simplifyProperty } from '../SocialContent/actions/shared/simplify';
import { latestGeneration, pollBudgetMs, pollGenerations, triggerKey, type TriggerOptions } from './pollGenerations';

export class SocialContentTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Social Content Trigger',
		name: 'socialContentTrigger',
		icon: { light: 'file:../../icons/socialContentTrigger.svg', dark: 'file:../../icons/socialContentTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description: 'Starts the workflow when studio generations finish',
		defaults: { name: 'Social Content Trigger' },
		polling: true,
		inputs: [],
		outputs: [MAIN_CONNECTION],
		credentials: credentialsFor(),
		properties: [
			authenticationProperty,
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				options: [
					{ name: 'Generation Failed', value: 'failed', description: 'A generation reached status failed' },
					{ name: 'Generation Finished', value: 'done', description: 'A generation reached status done' },
				],
				default: ['done'],
				required: true,
			},
			{
				displayName: 'Format Names or IDs',
				name: 'formats',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getFormats' },
				default: [],
				description:
					'Only generations of these formats; none means all. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				displayName: 'Download Outputs',
				name: 'downloadOutputs',
				type: 'boolean',
				default: false,
				description:
					"Whether to attach the outputs as binary data (output_0, output_1, …). A generation whose files cannot be downloaded is tried again on the next polls; after 5 it comes out without files and with an 'error' field.",
			},
			simplifyProperty,
		],
	};

	methods = { loadOptions: { getFormats: loadOptions.getFormats } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const options: TriggerOptions = {
			statuses: (this.getNodeParameter('events', ['done']) as string[]).filter(Boolean),
			formats: this.getNodeParameter('formats', []) as string[],
			download: this.getNodeParameter('downloadOutputs', false) as boolean,
			simplify: this.getNodeParameter('simplify', true) as boolean,
		};
		if (this.getMode() === 'manual') {
			// Fetch Test Event: the latest matching generation; the state is left alone.
			const item = await latestGeneration(this, options);
			return item ? [[item]] : null;
		}
		const activation = isActivationPoll(this);
		// n8n's classic engine starts a poll at each tick even while the last one still runs: two
		// polls of one trigger would read the same state and fire the same generations.
		const key = triggerKey(this);
		const running = runningPolls.get(key);
		if (running !== undefined && Date.now() - running < pollBudgetMs(this) + STUCK_POLL_MS) {
			this.logger.debug('Social Content Trigger: the previous poll is still running; this one is skipped');
			return null;
		}
		const started = Date.now();
		runningPolls.set(key, started);
		try {
			const items = await pollGenerations(this, options, activation);
			return items.length ? [items] : null;
		} catch (error) {
			if (!activation || mustStopActivation(this, error)) throw asNodeError(this, error);
			// Thrown here, n8n would try the activation a few times within seconds, then give up on
			// the trigger. The state did not move: the next scheduled poll catches up.
			this.logger.warn(
				`Social Content Trigger: the poll at activation (${this.getActivationMode()}) failed; the trigger stays scheduled and the next poll catches up: ${(error as Error).message}`,
			);
			return null;
		} finally {
			if (runningPolls.get(key) === started) runningPolls.delete(key);
		}
	}
}

/** Start time of the poll running now, per trigger (workflow and node), in this process. */
const runningPolls = new Map<string, number>();
/** A poll still marked running this long past its budget has hung: the next one goes ahead. */
const STUCK_POLL_MS = 60_000;

/** Poll contexts that have polled (n8n's classic engine keeps one context per activation). */
const polledContexts = new WeakSet<IPollFunctions>();

/**
 * Whether this is the poll n8n runs while activating the trigger, where a thrown error fails the
 * activation instead of being reported. n8n says so in two ways: its durable scheduler gives each
 * scheduled poll a new context, in activation mode 'update', with a poll budget shorter than the
 * five minutes of other polls (the activation poll has none of its own); the classic engine keeps
 * one context for an activation, whose first poll is the activation poll.
 */
function isActivationPoll(ctx: IPollFunctions): boolean {
	const first = !polledContexts.has(ctx);
	polledContexts.add(ctx);
	if (!first) return false;
	const budget = typeof (ctx as Partial<IPollFunctions>).getPollBudgetMs === 'function' ? Number(ctx.getPollBudgetMs()) : NaN;
	const scheduledByDurableEngine = ctx.getActivationMode() === 'update' && Number.isFinite(budget) && budget < CLASSIC_POLL_BUDGET_MS;
	return !scheduledByDurableEngine;
}

/** What n8n-core's PollContext answers when the poll has no budget of its own. */
const CLASSIC_POLL_BUDGET_MS = 5 * 60_000;

/** The transport's errors are node errors already; anything else becomes one. */
function asNodeError(ctx: IPollFunctions, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error);
}

/**
 * Whether a failed activation poll must fail the activation: only when a person is activating the
 * workflow (not at n8n's start or a leader change) and the fault is theirs to fix, a rejected
 * credential or an Instance URL that is not the API. Outages and rate limits never stop it.
 */
function mustStopActivation(ctx: IPollFunctions, error: unknown): boolean {
	if (!['activate', 'create', 'update'].includes(ctx.getActivationMode())) return false;
	if (error instanceof NodeOperationError) return true;
	const status = Number((error as { httpCode?: unknown }).httpCode);
	return Number.isFinite(status) && status > 0 && status !== 429 && status < 500;
}
