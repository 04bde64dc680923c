import type { INodeProperties } from 'n8n-workflow';

import type { SocialContentOperations } from '../node.type';
import type { Operation } from '../types';
import * as create from './create.operation';
import * as deletePost from './delete.operation';
import * as findFreeSlot from './findFreeSlot.operation';
import * as list from './list.operation';

export const operations: Record<SocialContentOperations['post'], Operation> = {
	create,
	list,
	delete: deletePost,
	findFreeSlot,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['post'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Schedule, publish or draft a post on channels',
				action: 'Create a post',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a post and its group',
				action: 'Delete a post',
			},
			{
				name: 'Find Free Slot',
				value: 'findFreeSlot',
				description: 'Find the next free time for a channel',
				action: 'Find a free slot',
			},
			{
				name: 'Get Many',
				value: 'list',
				description: 'Get the posts in a date range',
				action: 'Get many posts',
			},
		],
		default: 'create',
	},
	...create.description,
	...list.description,
	...deletePost.description,
	...findFreeSlot.description,
];
