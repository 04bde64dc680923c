import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as account from './actions/account';
import { router } from './actions/router';
import { authenticationProperty, credentialsFor, requestOptionsProperty } from './descriptions';

export class SocialContent implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Social Content',
		name: 'socialContent',
		icon: { light: 'file:../../icons/socialContent.svg', dark: 'file:../../icons/socialContent.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Score and generate hooks, generate media in the studio, and schedule posts to social channels',
		defaults: { name: 'Social Content' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: credentialsFor(),
		properties: [
			authenticationProperty,
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [{ name: 'Account', value: 'account' }],
				default: 'account',
			},
			...account.description,
			requestOptionsProperty,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
