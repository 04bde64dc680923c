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
import { latestGeneration, pollGenerations, type TriggerOptions } from './pollGenerations';

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
		// n8n runs the first poll of an activation itself and reuses this context for the scheduled ones.
		const activationPoll = !polledContexts.has(this);
		polledContexts.add(this);
		try {
			const items = await pollGenerations(this, options);
			return items.length ? [items] : null;
		} catch (error) {
			if (!activationPoll || mustStopActivation(this, error)) throw asNodeError(this, error);
			// Thrown here, n8n would give up on the trigger (or retry it for hours) while it still
			// shows as active. The state did not move: the next scheduled poll catches up.
			this.logger.warn(
				`Social Content Trigger: the poll at activation (${this.getActivationMode()}) failed; the trigger stays scheduled and the next poll catches up: ${(error as Error).message}`,
			);
			return null;
		}
	}
}

/** The transport's errors are node errors already; anything else becomes one. */
function asNodeError(ctx: IPollFunctions, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error);
}

/** Poll contexts that have polled: the first poll of each is the one n8n runs at activation. */
const polledContexts = new WeakSet<IPollFunctions>();

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
