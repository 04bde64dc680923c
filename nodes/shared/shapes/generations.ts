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
	const inner = unwrapGeneration(raw);
	return {
		...inner,
		id: inner.id !== undefined ? String(inner.id) : inner.id,
		status: typeof inner.status === 'string' ? inner.status.toLowerCase() : inner.status,
		format: inner.format ?? inner.formatId,
		outputs: outputsOf(inner),
	};
}

/** The statuses of a generation not finished yet. */
export const PENDING_STATUSES = ['queued', 'running'];

/** Whether a (normalised) status is one of a generation not finished yet. */
export const isPendingStatus = (status: unknown): boolean =>
	PENDING_STATUSES.includes(String(status));

/** The record itself, whether it came wrapped (`{ generation: {...} }`) or not. */
function unwrapGeneration(raw: unknown): IDataObject {
	const record = (raw && typeof raw === 'object' ? raw : {}) as IDataObject;
	return (
		record.generation && typeof record.generation === 'object' ? record.generation : record
	) as IDataObject;
}

/**
 * The id of a list entry that is queued or running, else undefined: a quick look, for the many
 * entries of a page read past where a poll stops.
 */
export function pendingGenerationId(raw: unknown): string | undefined {
	const inner = unwrapGeneration(raw);
	const status = typeof inner.status === 'string' ? inner.status.toLowerCase() : '';
	if (!PENDING_STATUSES.includes(status)) return undefined;
	return inner.id === undefined || inner.id === null || inner.id === ''
		? undefined
		: String(inner.id);
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

/** An ISO date-time with no zone (`2026-12-07T10:00:00`, `2026-12-07 10:00:00.123`). */
const NAIVE_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/** Fields that say when a generation finished; not `updatedAt`, which moves on any change. */
const FINISH_TIME_FIELDS = ['finishedAt', 'completedAt', 'doneAt', 'failedAt', 'endedAt'];

/**
 * When the generation reached its final status (ms), if the service says: ISO text, or a number
 * of seconds or milliseconds. Date.parse, not luxon: the trigger reads this for every entry of
 * lists of 100,000.
 */
export function finishTimeMs(generation: IDataObject): number | undefined {
	for (const field of FINISH_TIME_FIELDS) {
		const ms = timeMs(generation[field]);
		if (ms !== undefined) return ms;
	}
	return undefined;
}

/** The time a picker shows for a generation: when it finished, else last changed, else started. */
export function generationTime(generation: IDataObject): unknown {
	return finishTimeMs(generation) ?? generation.updatedAt ?? generation.createdAt;
}

/** Finished entries a list must show before its times can tell which way it runs. */
const FINISHED_TO_TELL_ORDER = 5;

/**
 * Which way a list of generations runs, when its times say so: `oldestFirst` when its finished
 * entries go up in time, `newestFirst` when they go down; undefined without times to tell. The
 * spec shows neither order nor times. Of the times every finished entry has (when it finished,
 * `updatedAt`, `createdAt`), the one the list follows most closely decides, and only when at
 * least 9 in 10 of 4 or more steps go its way.
 */
export function listDirection(entries: IDataObject[]): 'oldestFirst' | 'newestFirst' | undefined {
	const finished = entries.filter((entry) => entry.status === 'done' || entry.status === 'failed');
	if (finished.length < FINISHED_TO_TELL_ORDER) return undefined;
	const readers: Array<(entry: IDataObject) => number | undefined> = [
		finishTimeMs,
		(entry) => timeMs(entry.updatedAt),
		(entry) => timeMs(entry.createdAt),
	];
	let best: { lean: number; direction: 'oldestFirst' | 'newestFirst' } | undefined;
	for (const read of readers) {
		const times = finished.map(read);
		if (times.some((time) => time === undefined)) continue;
		let up = 0;
		let down = 0;
		for (let index = 1; index < times.length; index++) {
			const step = times[index]! - times[index - 1]!;
			if (step > 0) up++;
			else if (step < 0) down++;
		}
		const lean = Math.abs(up - down) / Math.max(1, up + down);
		if (up + down >= 4 && lean >= 0.8 && (!best || lean > best.lean))
			best = { lean, direction: up > down ? 'oldestFirst' : 'newestFirst' };
	}
	return best?.direction;
}

/**
 * A time as ms: ISO text (without a zone read as UTC, whatever n8n's own zone), or a number of
 * seconds or milliseconds.
 */
export function timeMs(value: unknown): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const text = String(value);
	const ms =
		typeof value === 'number'
			? value < 1e12
				? value * 1000
				: value
			: Date.parse(NAIVE_DATE_TIME.test(text) ? `${text}Z` : text);
	return Number.isFinite(ms) ? ms : undefined;
}
