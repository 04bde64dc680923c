/**
 * The credential test as n8n runs it (n8n 2.41 `CredentialsTester.runRequestTest`): a throwaway
 * declarative node whose one property routes the credential's `test.request`, run by n8n-core's
 * RoutingNode (here inside WorkflowExecute), with the credential applied by its `authenticate`.
 * Only the verdict is restated from n8n's tester: a thrown request error fails the test (with a
 * `responseCode` rule's message when its status matches), and a `responseSuccessBody` rule fails
 * it when get(body, key) === value.
 */
import type { ICredentialDataDecryptedObject, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { credentialTypes, registerNodeType, runChain, START_NODE_TYPE } from './harness.cjs';

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message?: string;
}

export async function runCredentialTest(
	credentialType: string,
	data: ICredentialDataDecryptedObject,
): Promise<CredentialTestResult> {
	const test = credentialTypes[credentialType]?.test;
	if (!test) throw new Error(`Credential type "${credentialType}" declares no test request`);
	const typeName = `credentialTest.${credentialType}`;
	const description: INodeTypeDescription = {
		displayName: 'Temp',
		name: typeName,
		group: ['transform'],
		version: 1,
		description: '',
		defaults: { name: 'Temp-Node' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: credentialType, required: true }],
		properties: [
			{
				displayName: 'Temp',
				name: 'temp',
				type: 'string',
				routing: { request: test.request },
				default: '',
			},
		],
	};
	registerNodeType(typeName, { description } as INodeType);
	const result = await runChain(
		[
			{ name: 'Start', type: START_NODE_TYPE },
			{
				name: 'Temp-Node',
				type: typeName,
				credentials: { [credentialType]: { id: '1', name: 'tested' } },
			},
		],
		{ credentials: { [credentialType]: data } },
	);
	if (result.error) {
		const status = (result.error as { httpCode?: string }).httpCode;
		// As n8n's tester: a status answer is first checked against the responseCode rules.
		for (const rule of test.rules ?? []) {
			if (rule.type === 'responseCode' && String(rule.properties.value) === status)
				return { status: 'Error', message: rule.properties.message };
		}
		return {
			status: 'Error',
			message: result.error.message || `Received HTTP status code: ${status}`,
		};
	}
	const body = result.output('Temp-Node')[0]?.json as unknown;
	for (const rule of test.rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		const value = String(rule.properties.key)
			.split('.')
			.reduce<unknown>(
				(at, key) =>
					at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined,
				body,
			);
		if (value === rule.properties.value)
			return { status: 'Error', message: rule.properties.message };
	}
	return { status: 'OK' };
}
