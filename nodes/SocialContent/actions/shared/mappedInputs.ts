import type { IDataObject, IExecuteFunctions, ResourceMapperField, ResourceMapperValue } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { listFieldOf, listValue } from './listInputs';
import { parseScalar } from './parameters';

/**
 * Start Generation's inputs from its resource mapper: the fields filled in the panel, or, in
 * "map automatically" mode, the input item's fields named like the format's inputs. Unset fields
 * are left out; a required one missing is a parameter error that names it, before anything is sent.
 */
export function mappedInputs(ctx: IExecuteFunctions, formatId: string, itemIndex: number): IDataObject {
	const mapper = ctx.getNodeParameter('inputs', itemIndex, {}) as Partial<ResourceMapperValue>;
	const schema = (mapper.schema ?? []).filter((field) => !field.removed);
	const values =
		mapper.mappingMode === 'autoMapInputData'
			? fieldsOfItem(ctx.getInputData()[itemIndex]?.json ?? {}, schema)
			: // Read through n8n so it checks and converts each value to its field's type.
				((ctx.getNodeParameter('inputs.value', itemIndex, {}) ?? {}) as IDataObject);
	const untyped = new Set(schema.filter((field) => !field.type).map((field) => field.id));
	const lists = new Map(schema.flatMap((field) => (listFieldOf(field.displayName) ? [[field.id, { field, ...listFieldOf(field.displayName) }] as const] : [])));
	const input: IDataObject = {};
	for (const [name, value] of Object.entries(values)) {
		if (value === null || value === undefined || value === '') continue;
		const list = lists.get(name);
		if (list) {
			const read = listValue(value, list.itemType);
			if ('bad' in read) {
				const label = list.field.displayName.replace(/ \(list.*$/, '');
				throw new NodeOperationError(ctx.getNode(), `"${label}": ${read.bad}`, {
					itemIndex,
					description: `"${label}" is a list of ${list.itemType === 'number' ? 'numbers' : 'true/false values'}: one per line, or separated by commas.`,
				});
			}
			if (read.list.length > 0) input[name] = read.list as IDataObject[];
			continue;
		}
		// A field the format gave no type: typed text like "12" or "true" goes as a number or boolean.
		input[name] = untyped.has(name) && typeof value === 'string' ? parseScalar(value) : value;
	}
	const missing = schema.filter((field) => field.required && !(field.id in input));
	if (missing.length > 0) {
		const names = missing.map((field) => `"${field.displayName}"`).join(', ');
		throw new NodeOperationError(ctx.getNode(), `Format "${formatId}" needs ${names}`, {
			itemIndex,
			description:
				mapper.mappingMode === 'autoMapInputData'
					? `The input item has no field ${missing.map((field) => field.id).join(', ')}. Rename it with an Edit Fields node, or choose "Map Each Input Manually" under Format Inputs.`
					: `Fill ${names} under Format Inputs. Nothing was started.`,
		});
	}
	return input;
}

function fieldsOfItem(json: IDataObject, schema: ResourceMapperField[]): IDataObject {
	return Object.fromEntries(schema.filter((field) => json[field.id] !== undefined).map((field) => [field.id, json[field.id]]));
}
