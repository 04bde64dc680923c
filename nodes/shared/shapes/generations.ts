/**
 * A generation record. The spec names `id`, `status`, `credits` (on start) and outputs (on read),
 * and leaves the rest open: "Shape of outputs beyond being media library files: not shown.";
 * "Transitions: not shown." (so neither when a generation finished nor under which name).
 */
import type { IDataObject } from 'n8n-workflow';

export interface GenerationOutput extends IDataObject {
	/** Where the file is: a path on the instance or a full URL. */
	location: string;
}

/** Where a file (generation output, media item) is, under whichever name the service used. */
export const FILE_LOCATION_NAMES = ['path', 'url', 'src', 'location'];

/** The other names a generation's fields may arrive under, and a wrapper around the record. */
export const GENERATION_ALIASES = ['formatId', 'output', 'files', 'media', 'generation'];

/**
 * A generation as output items show it: the server's fields, plus `id`, `status` (lower case),
 * `format` and `outputs` in one shape whatever the server called them. A record may come wrapped
 * (`{ generation: {...} }`). Outputs are media library files; each keeps its own fields and gains
 * `location`, the path or URL it can be downloaded from.
 */
export function normaliseGeneration(raw: unknown): IDataObject {
	const record = (raw && typeof raw === 'object' ? raw : {}) as IDataObject;
	const inner = (
		record.generation && typeof record.generation === 'object' ? record.generation : record
	) as IDataObject;
	return {
		...inner,
		id: inner.id !== undefined ? String(inner.id) : inner.id,
		status: typeof inner.status === 'string' ? inner.status.toLowerCase() : inner.status,
		format: inner.format ?? inner.formatId,
		outputs: outputsOf(inner),
	};
}

/** The outputs: a list or one, of records with a location or of bare paths/URLs. */
export function outputsOf(generation: IDataObject): GenerationOutput[] {
	const value =
		generation.outputs ?? generation.output ?? generation.files ?? generation.media ?? [];
	const list = Array.isArray(value) ? value : [value];
	return list
		.map((entry): GenerationOutput | undefined => {
			if (typeof entry === 'string') return entry ? { location: entry } : undefined;
			if (!entry || typeof entry !== 'object') return undefined;
			const file = entry as IDataObject;
			const location = fileLocation(file);
			return location ? { ...file, location } : undefined;
		})
		.filter((entry): entry is GenerationOutput => entry !== undefined);
}

/** A file record's location, the first of FILE_LOCATION_NAMES that holds a text. */
export function fileLocation(file: IDataObject): string | undefined {
	const location = FILE_LOCATION_NAMES.map((name) => file[name]).find(
		(value) => typeof value === 'string' && value,
	);
	return location as string | undefined;
}

/** Why a failed generation failed, where the service says, as text ('' when it does not). */
export function failureReason(generation: IDataObject): string {
	const reason =
		generation.error ?? generation.message ?? generation.reason ?? generation.failureReason;
	return typeof reason === 'string' ? reason : reason ? JSON.stringify(reason) : '';
}

/** Fields that say when a generation finished; not `updatedAt`, which moves on any change. */
const FINISH_TIME_FIELDS = ['finishedAt', 'completedAt', 'doneAt', 'failedAt', 'endedAt'];

/**
 * When the generation reached its final status (ms), if the service says: ISO text, or a number
 * of seconds or milliseconds. Date.parse, not luxon: the trigger reads this for every entry of
 * lists of 100,000.
 */
export function finishTimeMs(generation: IDataObject): number | undefined {
	for (const field of FINISH_TIME_FIELDS) {
		const value = generation[field];
		if (value === undefined || value === null || value === '') continue;
		const ms =
			typeof value === 'number' ? (value < 1e12 ? value * 1000 : value) : Date.parse(String(value));
		if (Number.isFinite(ms)) return ms;
	}
	return undefined;
}

/** The time a picker shows for a generation: when it finished, else last changed, else started. */
export function generationTime(generation: IDataObject): unknown {
	return finishTimeMs(generation) ?? generation.updatedAt ?? generation.createdAt;
}
