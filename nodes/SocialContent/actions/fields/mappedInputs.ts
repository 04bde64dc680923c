import type {
	IDataObject,
	IExecuteFunctions,
	ResourceMapperField,
	ResourceMapperValue,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { listFieldOf, listValue } from './listInputs';
import { parseScalar } from './parameters';

/**
 * Start Generation's inputs from its resource mapper: the fields filled in the panel, or, in
 * "map automatically" mode, the input item's fields named like the format's inputs. Unset fields
 * are left out; a required one missing is a parameter error that names it, before anything is sent.
 */
export function mappedInputs(
	ctx: IExecuteFunctions,
	formatId: string,
	itemIndex: number,
): IDataObject {
	const mapper = ctx.getNodeParameter('inputs', itemIndex, {}) as Partial<ResourceMapperValue>;
	const schema = (mapper.schema ?? []).filter((field) => !field.removed);
	const values =
		mapper.mappingMode === 'autoMapInputData'
			? fieldsOfItem(ctx.getInputData()[itemIndex]?.json ?? {}, schema)
			: fieldValues(ctx, formatId, schema, itemIndex);
	const untyped = new Set(schema.filter((field) => !field.type).map((field) => field.id));
	const lists = new Map(schema.map((field) => [field.id, listFieldOf(field.displayName)] as const));
	const input: IDataObject = {};
	for (const [name, value] of Object.entries(values)) {
		if (value === null || value === undefined || value === '') continue;
		const list = lists.get(name);
		if (list) {
			const read = listValue(value, list.itemType);
			if ('bad' in read) {
				throw new NodeOperationError(ctx.getNode(), `"${list.label}": ${read.bad}`, {
					itemIndex,
					description: `"${list.label}" is a list of ${list.itemWords}: one per line, or separated by commas.`,
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
	return Object.fromEntries(
		schema
			.filter((field) => json[field.id] !== undefined)
			.map((field) => [field.id, json[field.id]]),
	);
}

/**
 * The fields as filled, read through n8n so it checks and converts each value to its field's type.
 * n8n names a field it refuses by its id ("Invalid input for 'prompt'"): the error names it by its
 * label, as the panel shows it, and a required one without a value (an expression that gave
 * nothing) says so.
 */
function fieldValues(
	ctx: IExecuteFunctions,
	formatId: string,
	schema: ResourceMapperField[],
	itemIndex: number,
): IDataObject {
	try {
		return (ctx.getNodeParameter('inputs.value', itemIndex, {}) ?? {}) as IDataObject;
	} catch (error) {
		const { message = '', description } = error as Error & { description?: string };
		const named = /['"]([^'"]+)['"]/.exec(message)?.[1];
		const field = schema.find((entry) => entry.id === named);
		if (!field) throw new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
		const label = field.displayName;
		const said = `${message} ${description ?? ''}`;
		if (field.required && /required but not set|got (undefined|null)\b/.test(said)) {
			throw new NodeOperationError(ctx.getNode(), `Format "${formatId}" needs "${label}"`, {
				itemIndex,
				description: `Fill "${label}" under Format Inputs (its expression gave nothing). Nothing was started.`,
			});
		}
		const byLabel = (text: string) =>
			text.split(`'${field.id}'`).join(`"${label}"`).split(`"${field.id}"`).join(`"${label}"`);
		throw new NodeOperationError(ctx.getNode(), byLabel(message), {
			itemIndex,
			description: byLabel(description ?? '') || undefined,
		});
	}
}
