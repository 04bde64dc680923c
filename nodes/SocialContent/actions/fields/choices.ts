import type {
	IExecuteFunctions,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** A closed choice: a field of fixed values (not loaded from the service), with its label. */
interface Choice {
	label: string;
	options: INodePropertyOptions[];
}

/**
 * A closed choice (a list of fixed values) given a value it does not have, by an expression or an
 * agent's model (`later` for Type, `nobody` for X's Who Can Reply inside Settings): refused before
 * anything is sent, naming what to send. Choices inside a collection or a fixed collection are
 * checked too, in every entry.
 */
export function refuseUnknownChoices(
	ctx: IExecuteFunctions,
	fields: INodeProperties[],
	itemIndex: number,
): void {
	const choices = new Map<string, Choice>();
	for (const field of fields) {
		const choice = closedChoice(field, field.displayName);
		if (choice) {
			// A field shown in several variants (displayOptions) takes the values of all of them.
			const held = choices.get(field.name)?.options ?? [];
			choices.set(field.name, { ...choice, options: [...held, ...choice.options] });
		}
	}
	for (const [name, choice] of choices)
		refuseIfUnknown(ctx, choice, ctx.getNodeParameter(name, itemIndex, undefined), itemIndex);
	for (const field of fields) {
		if (field.type !== 'collection' && field.type !== 'fixedCollection') continue;
		const value = ctx.getNodeParameter(field.name, itemIndex, {}) as unknown;
		for (const [choice, given] of nestedChoices(field, value))
			refuseIfUnknown(ctx, choice, given, itemIndex);
	}
}

function closedChoice(field: INodeProperties, label: string): Choice | undefined {
	if (field.type !== 'options' || !Array.isArray(field.options)) return undefined;
	if (field.typeOptions?.loadOptionsMethod) return undefined;
	return { label, options: field.options as INodePropertyOptions[] };
}

/** Each closed choice inside a collection's value, with the value given for it. */
function nestedChoices(field: INodeProperties, value: unknown): Array<[Choice, unknown]> {
	if (!value || typeof value !== 'object') return [];
	const record = value as Record<string, unknown>;
	const found: Array<[Choice, unknown]> = [];
	const check = (inner: INodeProperties, entry: unknown, label: string) => {
		const choice = closedChoice(inner, label);
		if (choice && entry && typeof entry === 'object')
			found.push([choice, (entry as Record<string, unknown>)[inner.name]]);
	};
	if (field.type === 'collection')
		for (const inner of (field.options ?? []) as INodeProperties[])
			check(inner, record, `${field.displayName}: ${inner.displayName}`);
	if (field.type === 'fixedCollection')
		for (const group of (field.options ?? []) as INodePropertyCollection[]) {
			const entries = ([] as unknown[]).concat(record[group.name] ?? []);
			for (const entry of entries)
				for (const inner of group.values)
					check(
						inner,
						entry,
						group.values.length > 1
							? `${group.displayName}: ${inner.displayName}`
							: group.displayName,
					);
		}
	return found;
}

function refuseIfUnknown(
	ctx: IExecuteFunctions,
	{ label, options }: Choice,
	value: unknown,
	itemIndex: number,
): void {
	if (value === undefined || value === '' || options.some((option) => option.value === value))
		return;
	const allowed = options.map(
		(option) => `${option.value === '' ? '""' : String(option.value)} (${option.name})`,
	);
	throw new NodeOperationError(
		ctx.getNode(),
		`${label} cannot be "${String(value)}": send one of ${[...new Set(allowed)].join(', ')}.`,
		{
			itemIndex,
			description: `"${label}" takes one value of a fixed list: pick it in the list, or give its value (the part before the brackets) in an expression or a tool call.`,
		},
	);
}
