import type { INodeProperties } from 'n8n-workflow';

import type { SocialContentOperations } from '../node.type';
import type { Operation } from '../types';
import * as generate from './generate.operation';
import * as score from './score.operation';

export const operations: Record<SocialContentOperations['hook'], Operation> = { score, generate };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['hook'] } },
		options: [
			{
				name: 'Generate',
				value: 'generate',
				description: 'Generate hooks for a topic',
				action: 'Generate hooks',
			},
			{
				name: 'Score',
				value: 'score',
				description: 'Score a piece of text as a hook',
				action: 'Score a hook',
			},
		],
		default: 'score',
	},
	...score.description,
	...generate.description,
];
