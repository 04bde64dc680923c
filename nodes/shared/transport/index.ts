import type { IDataObject, IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';

import {
	looksLikeHtml,
	notApiAnswerError,
	redact,
	statusError,
	type FailedResponse,
	type MissingRoute,
	type RequestSubject,
	unreadableAnswerError,
} from './errors';
import { locationOf } from './connection';
import { bodyText, exchange, parseAnswer } from './exchange';
import { StreamingForm } from './multipart';
import { UnreadableAnswer, withoutWrittenSecrets } from '../shapes/secrets';
import type { RunContext } from './runContext';

export { READ_RETRY_DELAYS_MS } from './exchange';
export type { MissingRoute, RequestSubject } from './errors';
export { MAX_RATE_LIMITED_TRIES, MIN_RATE_LIMIT_WAIT_MS } from './rateLimit';
export { RunContext, type ApiContext } from './runContext';
export { downloadFile, saveDownload, type DownloadedFile, type FileStream } from './downloads';
export { outOfTime, type OutOfTime } from './deadline';
export { durationText } from './errors';

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below /api/public/v1, starting with a slash. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject | StreamingForm;
	/** What it is about when the user named it by id: a 500 for an unknown id then says "not found, or not yours?". */
	about?: RequestSubject;
	/** What a 404 means for a route some instances do not have (the real backend has no GET /media). */
	missingRoute?: MissingRoute;
}

/**
 * The one way this package talks to the service: JSON in, JSON out, errors that say what to do.
 * Auth follows the node's Authentication parameter; both the API key and the OAuth2 token go into
 * `Authorization` raw, without "Bearer". Retries: exchange.ts; 429s: rateLimit.ts; pace: pacing.ts.
 */
export async function apiRequest(
	run: RunContext,
	request: ApiRequest,
	itemIndex?: number,
): Promise<unknown> {
	const connection = await run.connectionFor(itemIndex);
	const options: IHttpRequestOptions = {
		method: request.method,
		baseURL: connection.baseURL,
		url: request.path,
		qs: request.qs,
		body: request.body as IHttpRequestOptions['body'],
		headers: { Accept: 'application/json' },
		// Following redirects would keep a copy of the whole body for replay: not for streamed files.
		disableFollowRedirect: request.body instanceof StreamingForm,
		// Read the body as text ourselves: a web page must never pass for a successful answer.
		encoding: 'text',
		json: false,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};
	const response = await exchange(run, request, options, itemIndex);
	const serviceDate = Date.parse(String(response.headers.date ?? ''));
	if (Number.isFinite(serviceDate)) run.serviceDateMs = serviceDate;

	// The key or token echoed back (a 200 that repeats the request's headers, say) never reaches an item.
	const text = redact(await bodyText(response), connection.secret);
	const contentType = String(response.headers['content-type'] ?? '');
	const failed: FailedResponse = {
		statusCode: response.statusCode,
		body: '',
		method: request.method,
		path: request.path,
		about: request.about,
		missingRoute: request.missingRoute,
		location: locationOf(response),
	};
	const at = { node: run.n8n.getNode(), connection, itemIndex };
	const ok = response.statusCode >= 200 && response.statusCode < 300;
	// A redirect not followed (nginx's comes with a small web page): it names where it points.
	if (response.statusCode >= 300 && response.statusCode < 400) throw statusError(at, failed);
	if (text.trim() !== '' && looksLikeHtml(text, contentType)) {
		// The page's start goes into the error's details: without the secrets written into it.
		const page = withoutWrittenSecrets(text.slice(0, 2000));
		throw notApiAnswerError(at, { ...failed, body: page }, true);
	}
	if (text.trim() === '') {
		if (ok) return {};
		throw statusError(at, failed);
	}
	const body = parseAnswer(text);
	if (body instanceof UnreadableAnswer) throw unreadableAnswerError(at, failed, body.reason);
	// Text that is not JSON (a JSON string answer starts with its quote).
	const notJson = typeof body === 'string' && !text.trimStart().startsWith('"');
	if (ok && notJson) throw notApiAnswerError(at, { ...failed, body }, false);
	if (ok) return body;
	throw statusError(at, { ...failed, body });
}
