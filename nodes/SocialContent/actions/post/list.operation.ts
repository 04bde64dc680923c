import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { RunContext } from '../../../shared/transport';
import { toUtcIso } from '../../../shared/dates';
import { noticeOnOutput } from '../../../shared/hints';
import { loopNotice, walkPages } from '../../../shared/paging';
import { normalisePost, toItems } from '../../../shared/shapes';

const show = { resource: ['post'], operation: ['list'] };

export const description: INodeProperties[] = updateDisplayOptions({ show }, [
	{
		displayName: 'Start Date',
		name: 'startDate',
		type: 'dateTime',
		default: '',
		required: true,
		description: 'List posts from this date',
	},
	{
		displayName: 'End Date',
		name: 'endDate',
		type: 'dateTime',
		default: '',
		required: true,
		description: 'List posts up to this date',
	},
]);

/**
 * GET /posts?startDate=&endDate= (ISO, UTC): one item per post, settings parsed from JSON strings.
 * Its answer is not shown: a paged one is followed to its end, as the trigger reads it.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
): Promise<INodeExecutionData[]> {
	const startDate = toUtcIso(
		this,
		this.getNodeParameter('startDate', itemIndex, ''),
		'Start Date',
		itemIndex,
	);
	const endDate = toUtcIso(
		this,
		this.getNodeParameter('endDate', itemIndex, ''),
		'End Date',
		itemIndex,
	);
	const posts: INodeExecutionData[] = [];
	const qs = { startDate, endDate };
	const { next, loop } = await walkPages(
		run,
		'/posts',
		{ qs, listKeys: ['posts'], itemIndex },
		(page) => {
			posts.push(...toItems(page).map(({ json }) => ({ json: normalisePost(json) })));
			return true;
		},
	);
	if (loop) noticeOnOutput(this, loopNotice(loop, `${posts.length.toLocaleString('en-US')} posts`));
	// Never a silent cut: the service still said there was more past the page guard.
	if (next)
		noticeOnOutput(
			this,
			`The list stopped after ${(next.page - 1).toLocaleString('en-US')} pages (${posts.length.toLocaleString('en-US')} posts) although the service said there were more: the output is not the whole range. Narrow Start Date and End Date, and read the rest in further runs.`,
		);
	return posts;
}
