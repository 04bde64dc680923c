import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../../shared/transport';
import { locatorId } from '../fields/parameters';
import { postLocator } from '../../../shared/posts';

export const description: INodeProperties[] = [
	postLocator(
		{ resource: ['post'], operation: ['delete'] },
		"The post to delete, with its group. A group is what one Post → Create made: on some instances the same post on every channel it was created for, on others (each channel its own group) only this channel's post",
	),
];

/**
 * DELETE /posts/:id. The answer is not in the spec (the real backend answers `{ error: true }` on
 * success): the output says what happened in our words, so no service field named `error` marks
 * a success as a failed item.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
): Promise<INodeExecutionData[]> {
	const id = locatorId(this, 'postId', 'post', itemIndex);
	await apiRequest(
		run,
		{ method: 'DELETE', path: `/posts/${encodeURIComponent(id)}`, about: { kind: 'post', id } },
		itemIndex,
	);
	return [{ json: { id, deleted: true } }];
}
