import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { FILE_LOCATION_NAMES, GENERATION_ALIASES, fileLocation } from './shapes';

/** n8n's usual Simplify switch: on by default, off gives the service's answer with every field. */
export const simplifyProperty: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
};

/** A file record (media item, generation output) with its location once, as `path`. */
export function simplifyFile(file: IDataObject): IDataObject {
	const location = fileLocation(file);
	const rest = Object.fromEntries(
		Object.entries(file).filter(([name]) => !FILE_LOCATION_NAMES.includes(name)),
	);
	return location === undefined ? rest : { ...rest, path: location };
}

/**
 * A normalised generation without the names it also arrived under (`formatId`, `output`, `files`,
 * a `generation` wrapper) and with each output's location once, as `path`.
 */
export function simplifyGeneration(generation: IDataObject): IDataObject {
	const rest = Object.fromEntries(
		Object.entries(generation).filter(([name]) => !GENERATION_ALIASES.includes(name)),
	);
	const outputs = Array.isArray(generation.outputs) ? (generation.outputs as IDataObject[]) : [];
	return { ...rest, outputs: outputs.map(simplifyFile) };
}
