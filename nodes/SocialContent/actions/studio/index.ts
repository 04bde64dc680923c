import type { INodeProperties } from 'n8n-workflow';

import { OPERATIONS } from '../../../shared/hints';
import type { SocialContentOperations } from '../node.type';
import type { Operation } from '../types';
import { TOOL_CALL_BOUND_MS } from '../fields/parameters';
import * as getCredits from './getCredits.operation';
import * as getGeneration from './getGeneration.operation';
import * as listFormats from './listFormats.operation';
import * as listGenerations from './listGenerations.operation';
import * as startGeneration from './startGeneration.operation';

export const operations: Record<SocialContentOperations['studio'], Operation> = {
	listFormats,
	startGeneration,
	getGeneration,
	listGenerations,
	getCredits,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['studio'] } },
		options: [
			{
				...OPERATIONS.getCredits.option,
				description: 'Get the credits left',
				action: 'Get credits',
			},
			{
				...OPERATIONS.getGeneration.option,
				description: 'Get the status and outputs of a generation',
				action: 'Get a generation',
			},
			{
				...OPERATIONS.listFormats.option,
				description: 'Get the formats, their inputs and prices',
				action: 'Get many formats',
			},
			{
				...OPERATIONS.listGenerations.option,
				description: 'Get generations, optionally by status',
				action: 'Get many generations',
			},
			{
				name: 'Start Generation',
				value: 'startGeneration',
				description: `Start a paid media generation. As an AI tool it answers within ${TOOL_CALL_BOUND_MS / 1000} s: the result, or the generation's ID, its status and the call to make next.`,
				action: 'Start a generation',
			},
		],
		default: 'startGeneration',
	},
	...listFormats.description,
	...startGeneration.description,
	...getGeneration.description,
	...listGenerations.description,
	...getCredits.description,
];
