import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../transport';
import { asRecord } from '../items';
import { requiredText } from '../shared/parameters';

const show = { resource: ['post'], operation: ['delete'] };

export const description: INodeProperties[] = updateDisplayOptions({ show }, [
	{
		displayName: 'Post ID',
		name: 'postId',
		type: 'string',
		default: '',
		required: true,
		description:
			'The post to delete. This deletes its whole group: the same post on every channel it was created for.',
	},
]);

/** DELETE /posts/:id. The answer is not in the spec: the output confirms the id. */
export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<INodeExecutionData[]> {
	const id = requiredText(this, 'postId', 'Post ID', itemIndex);
	const response = await apiRequest(run, { method: 'DELETE', path: `/posts/${encodeURIComponent(id)}` }, itemIndex);
	return [{ json: { ...asRecord(response, 'result'), id, deleted: true } }];
}
