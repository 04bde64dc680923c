import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { brokenDownloadError, isNetworkError, statusError, unreadableAnswerError } from './errors';
import { cancelSignalOf, locationOf } from './connection';
import { forTime } from './deadline';
import {
	bodyText,
	exchange,
	limitsOf,
	parseAnswer,
	READ_RETRY_DELAYS_MS,
	timeoutWithin,
} from './exchange';
import type { RunContext } from './runContext';
import { abortableWait } from '../compat';
import { UnreadableAnswer } from '../shapes/secrets';
import type { Clock } from '../clock';

/** A readable stream, as prepareBinaryData takes it (nodes may not import Node's stream module). */
export type FileStream = Exclude<
	Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0],
	Buffer
>;

export interface DownloadedFile {
	/** The file's bytes as they arrive: hand it to prepareBinaryData, which writes it where n8n keeps binary data. */
	data: FileStream;
	mimeType: string | undefined;
	/** The file name from Content-Disposition or the URL's last segment. */
	fileName: string | undefined;
	/** Set when the body went silent for the Timeout and was ended for it (ms of silence). */
	stalledAfterMs?: number;
}

/**
 * A file the service points to (a studio output, a media library file), as a stream never held
 * whole. A path is resolved against the instance; the credential goes to its origin only.
 */
export async function downloadFile(
	run: RunContext,
	location: string,
	itemIndex?: number,
): Promise<DownloadedFile> {
	const connection = await run.connectionFor(itemIndex);
	const url = new URL(location, `${connection.appURL}/`);
	const request = { method: 'GET', path: url.pathname, download: true };
	const options: IHttpRequestOptions = {
		method: 'GET',
		url: url.toString(),
		encoding: 'stream',
		json: false,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};
	// A file on another host (a CDN) has limits of its own.
	const offInstance = url.origin !== new URL(connection.baseURL).origin;
	const response = await exchange(run, { ...request, offInstance }, options, itemIndex);
	if (response.statusCode < 200 || response.statusCode >= 300) {
		const body = parseAnswer(await bodyText(response));
		const failed = {
			statusCode: response.statusCode,
			body,
			method: 'GET',
			path: url.pathname,
			location: locationOf(response),
		};
		const at = { node: run.n8n.getNode(), connection, itemIndex };
		if (body instanceof UnreadableAnswer) throw unreadableAnswerError(at, failed, body.reason);
		throw statusError(at, failed);
	}
	const file: Partial<DownloadedFile> = {};
	endOnSilence(
		response.body as FileStream,
		timeoutWithin(run, limitsOf(run.n8n, itemIndex).timeoutMs),
		file,
		cancelSignalOf(run.n8n),
		run.deadlineMs === undefined ? undefined : { atMs: run.deadlineMs, clock: run.clock },
	);
	const disposition = String(response.headers['content-disposition'] ?? '');
	const named = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1];
	const lastSegment = decodeURIComponent(url.pathname.split('/').filter(Boolean).pop() ?? '');
	const contentType = String(response.headers['content-type'] ?? '')
		.split(';')[0]
		.trim();
	return Object.assign(file, {
		data: response.body as FileStream,
		mimeType: contentType || undefined,
		fileName: named ?? (lastSegment || undefined),
	});
}

/** What the watch below uses of a body stream. */
interface WatchedBody {
	push: (chunk: unknown, encoding?: string) => boolean;
	destroy: (error: Error) => unknown;
	emit: (event: string, value: unknown) => boolean;
	on: (event: string, listener: () => void) => unknown;
	once: (event: string, listener: () => void) => unknown;
	readableLength?: number;
	readableHighWaterMark?: number;
}

/**
 * Ends a body silent for `idleMs` with a network error: n8n's Timeout covers only the headers, so a
 * server sending nothing more would hold the item for ever. Each chunk restarts the count, and a
 * busy reader (buffer full) is no silence. A run's deadline ends it too, however it moves. Silence
 * is a real socket's (the real clock); the deadline is the run's (its clock).
 */
function endOnSilence(
	body: FileStream,
	idleMs: number,
	file: Partial<DownloadedFile>,
	signal?: AbortSignal,
	deadline?: { atMs: number; clock: Clock },
): void {
	const stream = body as unknown as WatchedBody;
	if (typeof stream.push !== 'function' || typeof stream.destroy !== 'function') return;
	let lastDataMs = Date.now();
	let ended = false;
	const outOfTime = () => deadline !== undefined && deadline.clock.now() >= deadline.atMs;
	const cut = () => {
		if (ended) return;
		ended = true;
		const late = outOfTime();
		if (!late) file.stalledAfterMs = idleMs;
		const reason = late ? 'out of time for this run' : `no data for ${Math.round(idleMs / 1000)} s`;
		const error = Object.assign(new Error(reason), { code: 'ETIMEDOUT' });
		// The reader learns at once; destroying a fetch body may wait on the silent connection
		// before it reports anything (a second report then finds this listener, not a crash).
		stream.on('error', () => undefined);
		stream.emit('error', error);
		stream.destroy(error);
	};
	const push = stream.push.bind(stream);
	stream.push = (chunk, encoding) => {
		lastDataMs = Date.now();
		const accepted = push(chunk, encoding);
		// A body that keeps moving past the deadline is cut as the chunk comes, not at the next look.
		if (chunk !== null && outOfTime()) void Promise.resolve().then(cut);
		return accepted;
	};
	for (const event of ['end', 'close', 'error']) stream.once(event, () => (ended = true));
	const checkEveryMs = Math.max(50, Math.min(1000, idleMs / 4));
	const watch = async () => {
		while (!ended && !signal?.aborted) {
			const untilDeadlineMs = deadline ? deadline.atMs - deadline.clock.now() : Infinity;
			await abortableWait(Math.max(0, Math.min(checkEveryMs, untilDeadlineMs)), signal);
			if (ended) return;
			if ((stream.readableLength ?? 0) >= (stream.readableHighWaterMark ?? Infinity))
				lastDataMs = Date.now();
			if (outOfTime() || Date.now() - lastDataMs >= idleMs) return cut();
		}
	};
	watch().catch(() => undefined); // cancelled with the execution: the body goes with it
}

/**
 * Downloads a file into `save` (n8n's prepareBinaryData) as it streams. A body that breaks off fails
 * `save` (nothing partial is kept) and is tried again, a bounded number of times.
 */
export async function saveDownload<T>(
	run: RunContext,
	location: string,
	itemIndex: number | undefined,
	save: (file: DownloadedFile) => Promise<T>,
): Promise<T> {
	const signal = cancelSignalOf(run.n8n);
	for (let tries = 1; ; tries++) {
		const file = await downloadFile(run, location, itemIndex);
		try {
			return await save(file);
		} catch (error) {
			const broken =
				(file.data as { complete?: boolean }).complete === false || isNetworkError(error);
			// Not the download (n8n could not store the file, say): as it is, with the item's index.
			if (!broken) throw new NodeOperationError(run.n8n.getNode(), error as Error, { itemIndex });
			const outOfTime = run.deadlineMs !== undefined && run.clock.now() >= run.deadlineMs;
			if (tries <= READ_RETRY_DELAYS_MS.length && !signal?.aborted && !outOfTime) {
				await run.clock.wait(READ_RETRY_DELAYS_MS[tries - 1], signal);
				continue;
			}
			const connection = await run.connectionFor(itemIndex);
			const path = new URL(location, `${connection.appURL}/`).pathname;
			const at = { node: run.n8n.getNode(), connection, itemIndex };
			const cause = { error, tries, stalledAfterMs: file.stalledAfterMs };
			const broke = brokenDownloadError(at, { method: 'GET', path }, cause);
			throw outOfTime ? forTime(broke, { nothingDone: false }) : broke;
		}
	}
}
