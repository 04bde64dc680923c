/**
 * What n8n's editor does to a saved resource mapper (Format Inputs) when a user acts on it, so a
 * test can follow a panel through those actions and then run the node. Read in n8n-editor-ui
 * 2.41.0 (the editor of n8n 2.41.1), ResourceMapper.vue: removeAllFields, addAllFields,
 * loadAndSetFieldsToMap, fieldValueChanged, and pruneParamValues, which runs on every change.
 */
import { isDeepStrictEqual } from 'node:util';

import type { INodeParameters, ResourceMapperField } from 'n8n-workflow';

interface Mapper {
	value: Record<string, unknown> | null;
	schema: ResourceMapperField[];
}

/** Every change: values that are null, or of a field no longer in the schema, are deleted. */
function changed(mapper: Mapper): INodeParameters {
	const ids = new Set(mapper.schema.map((field) => field.id));
	const value = Object.fromEntries(
		Object.entries(mapper.value ?? {}).filter(([id, entry]) => entry !== null && ids.has(id)),
	);
	return { ...mapper, value } as unknown as INodeParameters;
}

function copy(saved: INodeParameters): Mapper {
	return structuredClone(saved) as unknown as Mapper;
}

/** "Remove All Inputs": every field but a required one marked removed (hidden ones too), its value gone. */
export function removeAllInputs(saved: INodeParameters): INodeParameters {
	const mapper = copy(saved);
	for (const field of mapper.schema.filter((entry) => !entry.required)) {
		field.removed = true;
		delete mapper.value?.[field.id];
	}
	return changed(mapper);
}

/** "Add All Inputs": only the fields the panel shows (`display`) come back, empty. */
export function addAllInputs(saved: INodeParameters): INodeParameters {
	const mapper = copy(saved);
	for (const field of mapper.schema.filter((entry) => entry.display && entry.removed)) {
		field.removed = false;
		mapper.value = { ...mapper.value, [field.id]: null };
	}
	return changed(mapper);
}

/**
 * Refresh: the fields loaded again, each keeping the removed mark of a field of the same id; a new
 * one shown. Only a schema that differs from the saved one is a change (and prunes the values).
 */
export function refreshInputs(
	saved: INodeParameters,
	loaded: ResourceMapperField[],
): INodeParameters {
	const mapper = copy(saved);
	const schema = structuredClone(loaded).map((field) => {
		const existing = mapper.schema.find((entry) => entry.id === field.id);
		if (existing) field.removed = existing.removed;
		else if (mapper.value !== null && !(field.id in mapper.value)) field.removed = false;
		return field;
	});
	// n8n compares with lodash's isEqual, which, like this, counts a key set to undefined.
	if (isDeepStrictEqual(schema, mapper.schema)) return saved;
	return changed({ ...mapper, schema });
}

/** A value typed into one of the fields shown. */
export function typeInput(saved: INodeParameters, id: string, value: unknown): INodeParameters {
	const mapper = copy(saved);
	return changed({ ...mapper, value: { ...mapper.value, [id]: value === '' ? null : value } });
}
