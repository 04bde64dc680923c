import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { generationItem, getGeneration, normaliseGeneration } from '../SocialContent/actions/shared/generations';
import { authenticationProperty, credentialsFor } from '../SocialContent/descriptions';
import { loadOptions } from '../SocialContent/methods';
import { apiRequest } from '../SocialContent/transport';
import { unwrapList } from '../SocialContent/actions/items';
import { hasMorePages } from '../SocialContent/actions/shared/paging';
import { advance, isNew, oldestFirst, readState, writeState } from './generationState';

/** Most pages read in one poll, when every generation on a page is new. */
const MAX_PAGES_PER_POLL = 20;

export class SocialContentTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Social Content Trigger',
		name: 'socialContentTrigger',
		icon: { light: 'file:../../icons/socialContent.svg', dark: 'file:../../icons/socialContent.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description: 'Starts the workflow when studio generations finish',
		defaults: { name: 'Social Content Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
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
				description: 'Whether to attach the outputs as binary data (output_0, output_1, …)',
			},
		],
	};

	methods = { loadOptions: { getFormats: loadOptions.getFormats } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const statuses = (this.getNodeParameter('events', ['done']) as string[]).filter(Boolean);
		const formats = this.getNodeParameter('formats', []) as string[];
		const download = this.getNodeParameter('downloadOutputs', false) as boolean;
		const staticData = this.getWorkflowStaticData('node');
		const state = readState(staticData);
		const manual = this.getMode() === 'manual';

		const finished = (await listFinished(this, statuses, state, manual)).filter((generation) =>
			statuses.includes(String(generation.status)),
		);

		if (manual) {
			// Fetch Test Event: the latest matching generation; the state is left alone.
			for (const generation of oldestFirst(finished).reverse()) {
				const detailed = await withDetails(this, generation);
				if (formatMatches(detailed, formats)) return [[await generationItem(this, detailed, download)]];
			}
			return null;
		}
		if (!state) {
			// First activation: what is already finished is the baseline, not an event.
			writeState(staticData, advance(undefined, finished));
			return null;
		}

		// Everything is fetched before the state moves: a failed poll throws here, and the same
		// generations come out on the next good poll.
		const items: INodeExecutionData[] = [];
		for (const generation of oldestFirst(finished.filter((entry) => isNew(state, entry)))) {
			const detailed = await withDetails(this, generation);
			if (formatMatches(detailed, formats)) items.push(await generationItem(this, detailed, download));
		}
		writeState(staticData, advance(state, finished));
		return items.length ? [items] : null;
	}
}

/**
 * The finished generations, newest pages first: one request per poll when the service filters by
 * status and the first page already reaches known ground; further pages only while all are new.
 */
async function listFinished(
	ctx: IPollFunctions,
	statuses: string[],
	state: ReturnType<typeof readState>,
	firstPageOnly: boolean,
): Promise<IDataObject[]> {
	const qs: IDataObject = statuses.length === 1 ? { status: statuses[0] } : {};
	const all: IDataObject[] = [];
	for (let page = 1; page <= MAX_PAGES_PER_POLL; page++) {
		const response = await apiRequest.call(ctx, {
			method: 'GET',
			path: '/studio/generations',
			qs: page === 1 ? qs : { ...qs, page },
		});
		const list = (Array.isArray(response) ? response : (unwrapList(response, ['generations']) ?? [])).map(normaliseGeneration);
		all.push(...list);
		const paged = hasMorePages(response, page);
		const allNew = state !== undefined && list.length > 0 && list.every((generation) => isNew(state, generation));
		if (firstPageOnly || !paged || !allNew) break;
	}
	return all;
}

function formatMatches(generation: IDataObject, formats: string[]): boolean {
	return formats.length === 0 || formats.includes(String(generation.format));
}

/** List entries may leave out outputs (the spec gives them "on read"): read the generation then. */
async function withDetails(ctx: IPollFunctions, generation: IDataObject): Promise<IDataObject> {
	const outputs = generation.outputs as unknown[];
	if (outputs.length > 0 && generation.format !== undefined) return generation;
	const details = await getGeneration(ctx, String(generation.id));
	return { ...generation, ...details, outputs: (details.outputs as unknown[]).length ? details.outputs : outputs };
}
