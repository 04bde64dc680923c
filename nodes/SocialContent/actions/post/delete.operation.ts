import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../transport';
import { asRecord } from '../items';
import { locatorId } from '../shared/parameters';
import { postLocator } from '../shared/posts';

export const description: INodeProperties[] = [
	postLocator(
		{ resource: ['post'], operation: ['delete'] },
		'The post to delete. This deletes its whole group: the same post on every channel it was created for',
	),
];

/** DELETE /posts/:id. The answer is not in the spec: the output confirms the id. */
export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<INodeExecutionData[]> {
	const id = locatorId(this, 'postId', 'post', itemIndex);
	const response = await apiRequest(run, { method: 'DELETE', path: `/posts/${encodeURIComponent(id)}` }, itemIndex);
	return [{ json: { ...asRecord(response, 'result'), id, deleted: true } }];
}
