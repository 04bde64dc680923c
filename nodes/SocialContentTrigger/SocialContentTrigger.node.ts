import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { MAIN_CONNECTION } from '../shared/compat';
import { authenticationProperty, credentialsFor } from '../shared/descriptions';
import { chosenValues, getChannels, getFormats } from '../shared/loadOptions';
import { simplifyProperty } from '../shared/simplify';
import type { PostStatus } from '../shared/shapes';
import { RunContext } from '../shared/transport';
import { latestGeneration, pollGenerations, type TriggerOptions } from './pollGenerations';
import { latestPost, pollPosts, type PostTriggerOptions } from './pollPosts';
import {
	asNodeError,
	isActivationPoll,
	pollBudgetMs,
	startPoll,
	type FamilyPoll,
} from './pollStore';

export class SocialContentTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Social Content Trigger',
		name: 'socialContentTrigger',
		icon: {
			light: 'file:../../icons/socialContentTrigger.svg',
			dark: 'file:../../icons/socialContentTrigger.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		// The events in words ("Generation finished, Post published"), not their internal values.
		subtitle: `={{ $parameter["events"].map((event) => (${JSON.stringify(EVENT_WORDS)})[event] || event).join(", ") }}`,
		description: 'Starts the workflow when studio generations finish, or posts go out or fail',
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
				options: EVENTS,
				default: ['done'],
				required: true,
			},
			{
				displayName: 'Generation Format Names or IDs',
				name: 'formats',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getFormats' },
				default: [],
				description:
					'For the generation events: only generations of these formats; none means all. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				displayOptions: { show: { events: GENERATION_EVENTS } },
			},
			{
				displayName: 'Download Outputs',
				name: 'downloadOutputs',
				type: 'boolean',
				default: false,
				description:
					"Whether to attach the outputs as binary data (output_0, output_1, …). A generation whose files cannot be downloaded is tried again on the next polls; after 5 it comes out without files and with an 'error' field.",
				displayOptions: { show: { events: GENERATION_EVENTS } },
			},
			{
				displayName: 'Post Channel Names or IDs',
				name: 'channels',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getChannels' },
				default: [],
				description:
					'For the post events: only posts on these channels; none means all. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				displayOptions: { show: { events: Object.keys(POST_EVENTS) } },
			},
			simplifyProperty,
		],
	};

	methods = {
		loadOptions: { getFormats, getChannels },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const events = (this.getNodeParameter('events', ['done']) as string[]).filter(Boolean);
		const simplify = this.getNodeParameter('simplify', true) as boolean;
		const generations: TriggerOptions = {
			statuses: events.filter((event) => GENERATION_EVENTS.includes(event)),
			formats: chosenValues(
				this.getNode(),
				this.getNodeParameter('formats', []),
				'Generation Format Names or IDs',
			),
			download: this.getNodeParameter('downloadOutputs', false) as boolean,
			simplify,
		};
		const posts: PostTriggerOptions = {
			statuses: events
				.map((event) => POST_EVENTS[event])
				.filter((status): status is PostStatus => status !== undefined),
			channels: chosenValues(
				this.getNode(),
				this.getNodeParameter('channels', []),
				'Post Channel Names or IDs',
			),
			simplify,
		};
		const run = new RunContext(this);
		if (this.getMode() === 'manual') {
			// Fetch Test Event: the latest matching generation and post; the state is left alone.
			const items = [
				generations.statuses.length ? await latestGeneration(run, generations) : undefined,
				posts.statuses.length ? await latestPost(run, posts) : undefined,
			].filter((item): item is INodeExecutionData => item !== undefined);
			return items.length ? [items] : null;
		}
		const activation = isActivationPoll(this);
		const endPoll = startPoll(run);
		if (!endPoll) {
			this.logger.debug(
				'Social Content Trigger: the previous poll is still running; this one is skipped',
			);
			return null;
		}
		try {
			run.deadlineMs = run.clock.now() + pollBudgetMs(this);
			// Posts first (one read); generations may spend the rest. Saved only if all succeed.
			const parts: FamilyPoll[] = [];
			if (posts.statuses.length) parts.push(await pollPosts(run, posts, activation));
			if (generations.statuses.length)
				parts.push(await pollGenerations(run, generations, activation));
			const items = parts.flatMap((part) => part.items);
			for (const part of parts) part.commit(items.length > 0);
			return items.length ? [items] : null;
		} catch (error) {
			if (!activation || mustStopActivation(this, error)) throw asNodeError(this, error);
			// Thrown here, n8n would give up on the trigger; the next scheduled poll catches up.
			this.logger.warn(
				`Social Content Trigger: the poll at activation (${this.getActivationMode()}) failed; the trigger stays scheduled and the next poll catches up: ${(error as Error).message}`,
			);
			return null;
		} finally {
			endPoll();
		}
	}
}

const EVENTS = [
	{
		name: 'Generation Failed',
		value: 'failed',
		description: 'A studio generation reached status failed',
	},
	{
		name: 'Generation Finished',
		value: 'done',
		description: 'A studio generation reached status done',
	},
	{
		name: 'Post Failed',
		value: 'postFailed',
		description: 'A scheduled or published post failed to go out',
	},
	{ name: 'Post Published', value: 'postPublished', description: 'A post went out on its channel' },
];
/** How the subtitle names each event: its option's name in words ("Generation finished"). */
const EVENT_WORDS = Object.fromEntries(
	EVENTS.map(({ name, value }) => [value, name.charAt(0) + name.slice(1).toLowerCase()]),
);

/** The Events values of generations (their statuses). */
const GENERATION_EVENTS = ['done', 'failed'];
/** The Events values of posts, and the outcome each stands for. */
const POST_EVENTS: Record<string, PostStatus | undefined> = {
	postPublished: 'published',
	postFailed: 'failed',
};

/**
 * Whether a failed activation poll fails the activation: a person activating, and a fault theirs to
 * fix (a rejected credential, a wrong Instance URL); never outages or rate limits.
 */
function mustStopActivation(ctx: IPollFunctions, error: unknown): boolean {
	if (!['activate', 'create', 'update'].includes(ctx.getActivationMode())) return false;
	if (error instanceof NodeOperationError) return true;
	const status = Number((error as { httpCode?: unknown }).httpCode);
	return Number.isFinite(status) && status > 0 && status !== 429 && status < 500;
}
