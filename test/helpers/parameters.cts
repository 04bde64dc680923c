/** Node parameters as the editor saves them, for tests (no hooks: safe to import anywhere). */
import type { INodeParameters } from 'n8n-workflow';

/**
 * Start Generation's Format Inputs as the editor saves them once the format's inputs are loaded:
 * the values typed (expressions allowed) and the schema read from the format.
 */
export function formatInputs(
	values: Record<string, string | number | boolean>,
	schema: Array<{
		id: string;
		displayName?: string;
		required?: boolean;
		type?: string;
		options?: unknown[];
		display?: boolean;
	}> = [],
): INodeParameters {
	const fields = schema.length ? schema : Object.keys(values).map((id) => ({ id, type: 'string' }));
	return {
		mappingMode: 'defineBelow',
		value: values,
		matchingColumns: [],
		schema: fields.map((field) => ({
			displayName: field.id,
			required: false,
			defaultMatch: false,
			display: true,
			canBeUsedToMatch: false,
			...field,
		})),
		attemptToConvertTypes: false,
		convertFieldsToString: false,
	} as unknown as INodeParameters;
}

/** Start Generation of `formatId` with these inputs; not waiting unless `extra` says so. */
export function startGeneration(
	formatId: string,
	values: Record<string, string | number | boolean>,
	extra: INodeParameters = {},
): INodeParameters {
	return {
		resource: 'studio',
		operation: 'startGeneration',
		format: { __rl: true, mode: 'id', value: formatId },
		inputs: formatInputs(values),
		waitForCompletion: false,
		...extra,
	};
}
