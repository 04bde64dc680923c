#!/usr/bin/env node
/*
 * A local sandbox of the social-content service, following ../../../shared/spec/service-api.md:
 * the public API under /api/public/v1 (raw-key auth; "Bearer …" is rejected), the OAuth app flow
 * (authorize and token, form or JSON bodies, PKCE S256), generations that move
 * queued → running → done/failed over time, credits (402 reserves nothing), rate-limit buckets,
 * 503 switches per feature, real multipart uploads, and fault injection for tests.
 *
 * Plain Node, no dependencies; listens on 127.0.0.1 only. Run: node test/sandbox/server.js
 * Control (tests only, no auth): GET /__sandbox/state, POST /__sandbox/reset, POST /__sandbox/faults,
 * POST /__sandbox/config, POST /__sandbox/finish (finish all running generations now, or { ids }),
 * POST /__sandbox/touch ({ ids }: the service changes them, updatedAt now; a list sorted by update moves them up),
 * POST /__sandbox/posts ({ ids, status?, publishDate?, content? }: a post goes out, fails, is queued
 * again, moved in time or edited now). Scheduled posts go out (or fail) when their date comes.
 * Fault kinds: reset (drop the connection before doing anything), resetAfter (do it, then drop),
 * slow (delayMs, then answer), html500, malformed (broken JSON), login (an HTML login page),
 * status (any status and body), redirect (`status`, `location`; e.g. a POST moved by a proxy).
 * Profiles (config `profile`): 'spec' answers as our reading of the spec; 'postiz' answers the
 * channel, media and post routes as the open-source backend whose public API they share does
 * (gitroomhq/postiz-app, public.integrations.controller.ts and the posts DTOs): see POSTIZ below.
 */
'use strict';
const http = require('node:http');
const crypto = require('node:crypto');

const DEFAULTS = {
	apiKey: 'sk_sandbox_demo_key',
	clientId: 'sandbox-client',
	clientSecret: 'sandbox-secret',
	credits: 100,
	/** How long a generation stays queued, then running (ms). */
	queuedMs: 300,
	runningMs: 1200,
	/**
	 * Rate limits per bucket, where the spec is silent on the limiter and units: `limit` requests per
	 * second with a burst of `burst` (default `limit`; a token bucket), or, with `windowMs`, `limit`
	 * requests per fixed window of that many ms, or per sliding window with `sliding: true`.
	 * `retryAfter` in the 429 body: 'fraction' (exact seconds, 0.05), 'whole' (seconds rounded up,
	 * as an HTTP Retry-After header gives them) or 'ms' (whole milliseconds, rounded up); with
	 * `retryAfterHeader`, also the standard `Retry-After` header (whole seconds, rounded up). An
	 * hourly quota: `{ limit: 5, windowMs: 3_600_000 }` with 'whole'.
	 */
	buckets: { default: { limit: 100 }, hooks: { limit: 20 }, studio: { limit: 20 } },
	retryAfter: 'fraction',
	retryAfterHeader: false,
	/** features answering 503 */
	disabled: [],
	mediaPageSize: 20,
	/** Files already in the media library at the start (a long list to page through). */
	seedMedia: 0,
	/**
	 * How GET /studio/generations answers, where the spec is silent: with time fields or none at all
	 * (only id, status, format, credits, outputs); newest first by creation, by completion or by last update ('update')
	 * (unfinished ones on top); one array, or pages of this size ({ generations, page, pages }).
	 */
	generationTimestamps: true,
	generationOrder: 'creation',
	generationPageSize: 0,
	/** How a format record shows its inputs: 'names', 'fields' or 'schema' (see FORMAT_RECORDS). */
	formatRecords: 'fields',
	/** Output files of these generation ids answer 404 (true: every one). */
	missingOutputs: [],
	/** 'spec' or 'postiz' (see the header). */
	profile: 'spec',
	/** 'postiz' only: its API_LIMIT, posts created per hour (default 90; see POSTIZ). */
	postsPerHour: undefined,
	/** 'postiz' only: false drops the X-RateLimit-* headers from allowed posts (a proxy that strips them). */
	postsQuotaHeaders: true,
	/**
	 * Posts go out this long after their date (ms); one whose text contains `failPostsContaining`
	 * fails instead. GET /posts answers `{ posts }` ('wrapped') or a bare array ('bare').
	 */
	postPublishDelayMs: 0,
	failPostsContaining: '[fail]',
	postList: 'wrapped',
};

/**
 * The real backend's answers where the spec leaves them open (read in gitroomhq/postiz-app):
 * - validation errors are NestJS's: { message: [..], error: 'Bad Request', statusCode: 400 };
 *   a route it does not have is { message: 'Cannot GET …', error: 'Not Found', statusCode: 404 };
 * - tags must be { value, label } objects; only tags the instance has are linked to the post;
 * - each channel of one create is its own group;
 * - DELETE /posts/:id answers { error: true } on success (sic), and an unknown id throws (500);
 * - DELETE /integrations/:id answers the whole channel record, its OAuth tokens included;
 * - there is no GET /media; uploads answer the media record;
 * - find-slot answers a UTC time without a zone;
 * - posts are listed as { posts } with the fields its list query selects: `state` (QUEUE,
 *   PUBLISHED, ERROR, DRAFT), `releaseURL` once out, the channel as an `integration` object, tags
 *   as { tag }; no failure reason, no creation time (posts.repository.ts, getPosts);
 * - only creating posts is rate limited (throttler.provider.ts: POST /public/v1/posts, per
 *   organisation; app.module.ts: `API_LIMIT` a window of an hour, 90 by default), answered as
 *   NestJS's throttler does: no `retryAfter`, `bucket` or `limit` in the body, only the standard
 *   `Retry-After` header in whole seconds; every post it lets through carries `X-RateLimit-Limit`,
 *   `X-RateLimit-Remaining` and `X-RateLimit-Reset` (seconds until the window ends).
 */
const POSTIZ = {
	/** Config `postsPerHour` stands for the instance's API_LIMIT (the window counted from the first post). */
	postsThrottle: (config) => ({
		limit: config.postsPerHour ?? 90,
		windowMs: 3_600_000,
		anchored: true,
	}),
	throttled: { statusCode: 429, message: 'ThrottlerException: Too Many Requests' },
	tags: ['launch', 'news', 'promo'],
	tagsMessage: 'tags.each value in nested property tags must be either object or array',
	serverError: { statusCode: 500, message: 'Internal server error' },
	/** What the backend keeps of a channel beyond what it lists (the Disconnect answer shows it). */
	channelRecord: (channel) => ({
		...channel,
		internalId: `${channel.identifier}-internal-1`,
		providerIdentifier: channel.identifier,
		organizationId: 'org_sandbox',
		token: `oauth-access-${channel.id}-secret`,
		refreshToken: `oauth-refresh-${channel.id}-secret`,
		customInstanceDetails: `instance-login-${channel.id}-secret`,
		tokenExpiration: new Date(Date.now() + 864e5).toISOString(),
		deletedAt: new Date().toISOString(),
	}),
};

/** Each format's inputs: name, type, and whether a start without it is refused (400). */
const text = (name, required = true) => ({ name, type: 'string', required });
const FORMATS = [
	{ id: 'wall_of_text', name: 'Wall of text', inputs: [text('hook')], credits: 1, output: 'png' },
	{
		id: 'slideshow',
		name: 'Slideshow',
		inputs: [
			text('hook'),
			{ name: 'slides', type: 'number', required: false },
			{ name: 'captions', type: 'array', items: 'string', required: false },
		],
		credits: 5,
		output: 'png',
		count: 3,
	},
	{
		id: 'hook_plus_demo',
		name: 'Hook + demo',
		inputs: [text('hook'), { name: 'demoUrl', type: 'url', required: true }],
		credits: 8,
		output: 'mp4',
	},
	{
		id: 'voiceover',
		name: 'Voiceover',
		inputs: [
			text('script'),
			{ name: 'voice', type: 'string', required: false, options: ['warm', 'bright', 'calm'] },
		],
		credits: 3,
		output: 'mp3',
	},
	{ id: 'image_fast', name: 'Image (fast)', inputs: [text('prompt')], credits: 1, output: 'png' },
	{
		id: 'image_quality',
		name: 'Image (quality)',
		inputs: [text('prompt')],
		credits: 4,
		output: 'png',
	},
	{ id: 'image_pro', name: 'Image (pro)', inputs: [text('prompt')], credits: 12, output: 'png' },
	{
		id: 'video_clip',
		name: 'Video clip',
		inputs: [text('prompt'), { name: 'seconds', type: 'number', required: false }],
		credits: 40,
		output: 'mp4',
	},
];
/**
 * How GET /studio/formats shows a format's inputs (the spec: "Field names and shape of the format
 * record: not shown"): a list of names, a list of field records, or a JSON Schema.
 */
const FORMAT_RECORDS = {
	names: (inputs) => inputs.map((input) => input.name),
	fields: (inputs) =>
		inputs.map(({ options, ...input }) => ({ ...input, ...(options ? { options } : {}) })),
	schema: (inputs) => ({
		type: 'object',
		properties: Object.fromEntries(
			inputs.map((input) => [
				input.name,
				{
					type: input.type === 'url' ? 'string' : input.type,
					...(input.type === 'url' ? { format: 'uri' } : {}),
					...(input.options ? { enum: input.options } : {}),
					...(input.items ? { items: { type: input.items } } : {}),
				},
			]),
		),
		required: inputs.filter((input) => input.required).map((input) => input.name),
	}),
};
const MIME = { png: 'image/png', mp4: 'video/mp4', mp3: 'audio/mpeg', txt: 'text/plain' };
const CHANNELS = [
	{
		id: 'ch_x',
		name: 'Sandbox on X',
		identifier: 'x',
		picture: '/uploads/avatar.png',
		disabled: false,
	},
	{
		id: 'ch_linkedin',
		name: 'Sandbox on LinkedIn',
		identifier: 'linkedin',
		picture: '/uploads/avatar.png',
		disabled: false,
	},
	{
		id: 'ch_instagram',
		name: 'Sandbox on Instagram',
		identifier: 'instagram',
		picture: '/uploads/avatar.png',
		disabled: false,
	},
];
const LOGIN_PAGE =
	'<!DOCTYPE html><html><head><title>Sign in</title></head><body><h1>Sign in</h1><form><input name="email"></form></body></html>';

function createSandbox(options = {}) {
	// Time as the tests' runs see it (options.clock, a { now() }): a test on a clock that skips
	// waits has the service's windows and progress move with it. Real time otherwise.
	const { clock = { now: () => Date.now() }, ...given } = options;
	options = given;
	const config = {
		...DEFAULTS,
		...options,
		buckets: { ...DEFAULTS.buckets, ...(options.buckets ?? {}) },
	};
	let state;
	function reset() {
		state = {
			credits: config.credits,
			generations: [],
			media: Array.from({ length: config.seedMedia }, (_, i) => ({
				id: `med_seed_${i}`,
				name: `seed-${i}.png`,
				path: `/uploads/seed-${i}.png`,
				mimeType: 'image/png',
				createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
			})).reverse(),
			files: new Map(),
			posts: [],
			channels: CHANNELS.map((c) => ({ ...c })),
			tokens: new Map(),
			codes: new Map(),
			buckets: new Map(),
			faults: [],
			tokenRequests: [],
			counts: {
				requests: 0,
				postsCreated: 0,
				generationsStarted: 0,
				uploads: 0,
				rateLimited: 0,
				byRoute: {},
			},
			seq: 0,
			brandRead: false,
			/** the Authorization header of each API request, for tests */
			authHeaders: [],
			/** each request to a rate-limited route: when it arrived, and for a 429 the wait it asked (ms) */
			rateLog: [],
		};
		state.files.set('/uploads/avatar.png', { data: tinyPng(), mime: 'image/png' });
	}
	reset();
	const nextId = (prefix) =>
		`${prefix}_${(++state.seq).toString(36)}${crypto.randomBytes(2).toString('hex')}`;

	function tick() {
		const now = clock.now();
		for (const post of state.posts)
			if (
				post.status === 'scheduled' &&
				Date.parse(post.publishDate) + config.postPublishDelayMs <= now
			)
				sendPost(post, now);
		for (const g of state.generations) {
			if (g.status === 'queued' && now - g.startedAt >= config.queuedMs) {
				g.status = 'running';
				g.updatedAt = new Date(now).toISOString();
			}
			if (g.status === 'running' && now - g.startedAt >= config.queuedMs + config.runningMs)
				finishGeneration(g, now);
		}
	}
	/** A post goes out on its channel, or fails (its text asks to). */
	function sendPost(post, now = clock.now(), outcome = undefined) {
		const fails = outcome
			? outcome === 'failed'
			: Boolean(config.failPostsContaining) && post.content.includes(config.failPostsContaining);
		const channel = state.channels.find((c) => c.id === post.integration);
		post.status = fails ? 'failed' : 'published';
		post.publishedAt = fails ? null : new Date(now).toISOString();
		post.url = fails ? null : `https://${channel?.identifier ?? 'social'}.example.com/p/${post.id}`;
		post.error = fails
			? `The network refused the post (sandbox: its text contains "${config.failPostsContaining}")`
			: null;
	}

	function finishGeneration(g, now = clock.now()) {
		const format = FORMATS.find((f) => f.id === g.format);
		if (g.input && (g.input.fail === true || g.input.fail === 'true')) {
			g.status = 'failed';
			g.error = 'The generation failed (sandbox: input.fail was set)';
		} else {
			g.status = 'done';
			g.outputs = [];
			for (let i = 0; i < (format.count ?? 1); i++) {
				const name = `${g.id}-${i + 1}.${format.output}`;
				const path = `/uploads/${name}`;
				const data =
					format.output === 'png'
						? tinyPng()
						: Buffer.from(`sandbox ${format.output} ${g.id} #${i + 1}`);
				state.files.set(path, { data, mime: MIME[format.output] });
				const media = {
					id: nextId('med'),
					name,
					path,
					mimeType: MIME[format.output],
					createdAt: new Date(now).toISOString(),
				};
				state.media.unshift(media);
				g.outputs.push({ id: media.id, path, mimeType: media.mimeType });
			}
		}
		g.finishedAt = g.updatedAt = new Date(now).toISOString();
	}

	function rateLimited(bucketName) {
		const bucket = config.buckets[bucketName] ?? config.buckets.default;
		const waitSeconds = bucket.windowMs
			? (bucket.sliding ? slidingWait : windowWait)(bucketName, bucket)
			: bucketWait(bucketName, bucket);
		if (waitSeconds === undefined) return undefined;
		state.counts.rateLimited++;
		const retryAfter =
			config.retryAfter === 'whole'
				? Math.max(1, Math.ceil(waitSeconds))
				: config.retryAfter === 'ms'
					? Math.max(1, Math.ceil(waitSeconds * 1000))
					: Number(Math.max(0.01, waitSeconds).toFixed(3));
		const askedMs = config.retryAfter === 'ms' ? retryAfter : retryAfter * 1000;
		return {
			body: { code: 'RATE_LIMITED', bucket: bucketName, limit: bucket.limit, retryAfter },
			askedMs,
		};
	}

	/**
	 * The real backend limits only creating posts (per organisation), as NestJS's throttler does:
	 * the body says nothing of the wait, the `Retry-After` header (whole seconds) does.
	 */
	function postizThrottled(method, route) {
		if (method !== 'POST' || route !== '/posts') return undefined;
		const waitSeconds = windowWait('posts', POSTIZ.postsThrottle(config));
		if (waitSeconds === undefined) return undefined;
		state.counts.rateLimited++;
		return { body: POSTIZ.throttled, askedMs: Math.ceil(waitSeconds) * 1000, withHeader: true };
	}

	/**
	 * What NestJS's throttler tells every request it lets through: the limit, how many remain in
	 * the window, and the seconds until it ends (ThrottlerGuard.handleRequest).
	 */
	function postizQuotaHeaders() {
		const throttle = POSTIZ.postsThrottle(config);
		const window = state.buckets.get('posts');
		return {
			'X-RateLimit-Limit': String(throttle.limit),
			'X-RateLimit-Remaining': String(Math.max(0, throttle.limit - window.count)),
			'X-RateLimit-Reset': String(
				Math.ceil((window.start + throttle.windowMs - clock.now()) / 1000),
			),
		};
	}

	/**
	 * Token bucket: `limit` a second, burst `burst` (or `limit`). Seconds until a token, or undefined
	 * when one is taken. With `squeeze: { fromMs, toMs, limit }` the bucket is shared (refills at
	 * that `limit`) from `fromMs` to `toMs` after its first request, then freed.
	 */
	function bucketWait(bucketName, bucket) {
		const now = clock.now();
		const burst = bucket.burst ?? bucket.limit;
		let b = state.buckets.get(bucketName);
		if (!b) {
			b = { tokens: burst, at: now, startedAt: now };
			state.buckets.set(bucketName, b);
		}
		const since = now - b.startedAt;
		const rate =
			bucket.squeeze && since >= bucket.squeeze.fromMs && since < bucket.squeeze.toMs
				? bucket.squeeze.limit
				: bucket.limit;
		b.tokens = Math.min(burst, b.tokens + ((now - b.at) / 1000) * rate);
		b.at = now;
		if (b.tokens >= 1) {
			b.tokens -= 1;
			return undefined;
		}
		return (1 - b.tokens) / rate;
	}

	/**
	 * Fixed window: `limit` per `windowMs`, counted from the epoch (with `anchored`, from the
	 * bucket's first request: an hourly quota that has just begun). Seconds until the next window.
	 */
	function windowWait(bucketName, bucket) {
		const now = clock.now();
		const origin = bucket.anchored ? (state.buckets.get(bucketName)?.origin ?? now) : 0;
		const start = origin + Math.floor((now - origin) / bucket.windowMs) * bucket.windowMs;
		let w = state.buckets.get(bucketName);
		if (!w || w.start !== start) {
			w = { start, count: 0, origin };
			state.buckets.set(bucketName, w);
		}
		if (w.count < bucket.limit) {
			w.count++;
			return undefined;
		}
		return (start + bucket.windowMs - now) / 1000;
	}

	/** Sliding window: `limit` in any `windowMs`. Seconds until the oldest request leaves it. */
	function slidingWait(bucketName, bucket) {
		const now = clock.now();
		let log = state.buckets.get(bucketName);
		if (!log) state.buckets.set(bucketName, (log = []));
		while (log.length && log[0] <= now - bucket.windowMs) log.shift();
		if (log.length < bucket.limit) {
			log.push(now);
			return undefined;
		}
		return (log[0] + bucket.windowMs - now) / 1000;
	}

	function authorised(req) {
		const value = req.headers.authorization;
		state.authHeaders.push(value ?? null);
		if (!value || /^bearer\s/i.test(value)) return false;
		return value === config.apiKey || state.tokens.has(value);
	}

	async function handle(req, res) {
		state.counts.requests++;
		const url = new URL(req.url, 'http://sandbox');
		const path = url.pathname;
		const send = (status, body, headers = {}) => {
			const text = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
			res.writeHead(status, {
				'Content-Type': typeof body === 'string' ? 'text/plain' : 'application/json',
				...headers,
			});
			res.end(status === 204 ? undefined : text);
		};
		// Headers every later answer to this request carries (a throttler's, set before the route runs).
		const answerHeaders = {};
		const json = (status, body) =>
			send(status, body, { 'Content-Type': 'application/json', ...answerHeaders });

		if (path.startsWith('/__sandbox/')) return control(req, res, path, json);

		const fault = takeFault(req.method, path);
		if (fault) {
			if (fault.kind === 'reset') return req.socket.destroy();
			if (fault.kind === 'slow') await sleep(fault.delayMs ?? 2000);
			if (fault.kind === 'html500')
				return send(fault.status ?? 502, '<html><body><h1>502 Bad Gateway</h1></body></html>', {
					'Content-Type': 'text/html',
				});
			if (fault.kind === 'malformed')
				return send(200, '{"ok": tru', { 'Content-Type': 'application/json' });
			if (fault.kind === 'login') return send(200, LOGIN_PAGE, { 'Content-Type': 'text/html' });
			if (fault.kind === 'status') return json(fault.status, fault.body ?? {});
			if (fault.kind === 'redirect') {
				res.writeHead(fault.status ?? 302, { Location: fault.location ?? path });
				return res.end();
			}
		}

		if (path === '/oauth/authorize') return authorize(url, res, json);
		if (path === '/api/oauth/token' && req.method === 'POST') return token(req, json);
		if (path.startsWith('/uploads/')) {
			const file = state.files.get(path);
			const missing =
				config.missingOutputs === true ||
				state.generations.some(
					(g) => config.missingOutputs.includes?.(g.id) && path.startsWith(`/uploads/${g.id}-`),
				);
			if (!file || missing) return json(404, { msg: 'file not found' });
			return send(200, file.data, {
				'Content-Type': file.mime,
				'Content-Length': file.data.length,
			});
		}
		if (!path.startsWith('/api/public/v1/'))
			return send(200, LOGIN_PAGE, { 'Content-Type': 'text/html' });

		if (!authorised(req)) return json(401, { msg: 'Unauthorized' });
		if (fault && fault.kind === 'resetAfter') {
			// The request takes effect, then the connection drops before the answer: the client
			// cannot know whether it went through.
			tick();
			await api(req, url, path.slice('/api/public/v1'.length), () => undefined).catch(
				() => undefined,
			);
			return req.socket.destroy();
		}
		const route = path.slice('/api/public/v1'.length);
		state.counts.byRoute[`${req.method} ${route.replace(/\/[^/]*_[^/]+$/, '/:id')}`] =
			(state.counts.byRoute[`${req.method} ${route.replace(/\/[^/]*_[^/]+$/, '/:id')}`] ?? 0) + 1;
		const feature = route.split('/')[1];
		if (config.disabled.includes(feature))
			return json(503, { msg: `${feature} is not configured on this instance` });
		const bucketName = ['hooks', 'studio'].includes(feature) ? feature : 'default';
		const arrivedAt = clock.now();
		const limited =
			config.profile === 'postiz' && bucketName === 'default'
				? postizThrottled(req.method, route)
				: rateLimited(bucketName);
		if (limited) {
			state.rateLog.push({ at: arrivedAt, askedMs: limited.askedMs });
			const header =
				config.retryAfterHeader || limited.withHeader
					? { 'Retry-After': String(Math.max(1, Math.ceil(limited.askedMs / 1000))) }
					: {};
			return send(429, limited.body, { 'Content-Type': 'application/json', ...header });
		}
		state.rateLog.push({ at: arrivedAt });
		if (
			config.profile === 'postiz' &&
			config.postsQuotaHeaders &&
			req.method === 'POST' &&
			route === '/posts'
		)
			Object.assign(answerHeaders, postizQuotaHeaders());
		tick();
		try {
			return await api(req, url, route, json);
		} catch (error) {
			if (error.status === 400 && error.errors && config.profile === 'postiz') {
				return json(400, {
					message: error.errors.map((e) => e.raw ?? `${e.field} ${e.message}`),
					error: 'Bad Request',
					statusCode: 400,
				});
			}
			return json(error.status ?? 500, error.body ?? { msg: String(error.message) });
		}
	}

	async function api(req, url, route, json) {
		const m = req.method;
		const q = url.searchParams;
		const postiz = config.profile === 'postiz';
		let match;
		if (m === 'GET' && route === '/agents/ping')
			return json(200, {
				ok: true,
				organization: { id: 'org_sandbox', name: 'Sandbox Org' },
				tools: ['hooks', 'studio', 'posts', 'media'],
			});
		if (m === 'GET' && route === '/brand') {
			const found = state.brandRead;
			state.brandRead = true;
			return json(
				200,
				found
					? {
							found: true,
							name: 'Sandbox Brand',
							voice: 'friendly',
							audiences: [{ id: 'aud_founders', name: 'Founders' }],
						}
					: { found: false },
			);
		}
		if (m === 'POST' && route === '/hooks/score') {
			const body = await readJson(req);
			if (typeof body.text !== 'string' || !body.text.trim())
				throw badRequest([{ field: 'text', message: 'is required' }]);
			const score = Math.min(99, 40 + (body.text.length % 60));
			return json(200, {
				score,
				pattern: body.text.includes(':') ? 'curiosity gap' : 'statement',
				strengths: ['short', 'direct'],
				fixes: score < 70 ? ['add a number'] : [],
				rewrite: `3 ways: ${body.text}`,
				breakdown: { clarity: 8, curiosity: 7, platform: body.platform ?? null },
				benchmark: { percentile: score, estimated: true },
			});
		}
		if (m === 'POST' && route === '/hooks/generate') {
			const body = await readJson(req);
			const count = body.count ?? 5;
			if (!Number.isInteger(count) || count < 1 || count > 20)
				throw badRequest([{ field: 'count', message: 'must be between 1 and 20' }]);
			const topic = body.topic ?? 'your brand';
			return json(200, {
				hooks: Array.from({ length: count }, (_, i) => ({
					hook: `Hook ${i + 1} about ${topic}`,
					platform: body.platform ?? 'any',
				})),
			});
		}
		if (m === 'GET' && route === '/studio/formats')
			return json(
				200,
				FORMATS.map(({ output, count, inputs, ...f }) => ({
					...f,
					inputs: FORMAT_RECORDS[config.formatRecords](inputs),
				})),
			);
		if (m === 'POST' && route === '/studio/generations') {
			const body = await readJson(req);
			const format = FORMATS.find((f) => f.id === body.formatId);
			if (!format)
				throw badRequest([{ field: 'formatId', message: `unknown format "${body.formatId}"` }]);
			if (!body.input || typeof body.input !== 'object')
				throw badRequest([{ field: 'input', message: 'must be an object' }]);
			const inputErrors = format.inputs.flatMap((input) => {
				const value = body.input[input.name];
				if (value === undefined || value === null || value === '')
					return input.required
						? [{ field: `input.${input.name}`, message: `Missing required input "${input.name}"` }]
						: [];
				if (input.type === 'number' && typeof value !== 'number')
					return [{ field: `input.${input.name}`, message: 'must be a number' }];
				if (
					input.type === 'array' &&
					(!Array.isArray(value) || value.some((item) => typeof item !== input.items))
				)
					return [{ field: `input.${input.name}`, message: `must be a list of ${input.items}s` }];
				if (input.options && !input.options.includes(value))
					return [
						{ field: `input.${input.name}`, message: `must be one of ${input.options.join(', ')}` },
					];
				return [];
			});
			if (inputErrors.length) throw badRequest(inputErrors);
			if (state.credits < format.credits)
				return json(402, {
					msg: `This needs ${format.credits} credits; ${state.credits} left. Nothing was reserved.`,
				});
			state.credits -= format.credits;
			state.counts.generationsStarted++;
			const now = clock.now();
			const g = {
				id: nextId('gen'),
				status: 'queued',
				format: format.id,
				credits: format.credits,
				input: body.input,
				startedAt: now,
				createdAt: new Date(now).toISOString(),
				updatedAt: new Date(now).toISOString(),
			};
			state.generations.unshift(g);
			return json(200, { id: g.id, status: g.status, credits: g.credits });
		}
		if (m === 'GET' && route === '/studio/generations') {
			const status = q.get('status');
			if (status && !['queued', 'running', 'done', 'failed'].includes(status))
				throw badRequest([{ field: 'status', message: 'unknown status' }]);
			const rows = listedGenerations()
				.filter((g) => !status || g.status === status)
				.map(publicGeneration);
			const size = config.generationPageSize;
			if (!size) return json(200, rows);
			const page = Math.max(1, Number(q.get('page') ?? 1));
			return json(200, {
				generations: rows.slice((page - 1) * size, page * size),
				page,
				pages: Math.max(1, Math.ceil(rows.length / size)),
			});
		}
		if (m === 'GET' && (match = /^\/studio\/generations\/([^/]+)$/.exec(route))) {
			const g = state.generations.find((x) => x.id === decodeURIComponent(match[1]));
			return g ? json(200, publicGeneration(g)) : json(404, { msg: 'generation not found' });
		}
		if (m === 'GET' && route === '/credits') return json(200, { credits: state.credits });
		if (m === 'GET' && route === '/integrations') return json(200, state.channels);
		if (m === 'GET' && (match = /^\/social\/([^/]+)$/.exec(route)))
			return json(200, {
				url: `https://sandbox.invalid/connect/${match[1]}?state=${nextId('st')}`,
			});
		if (m === 'GET' && route === '/is-connected')
			return json(200, { connected: state.channels.length > 0 });
		if (m === 'DELETE' && (match = /^\/integrations\/([^/]+)$/.exec(route))) {
			const channel = state.channels.find((c) => c.id === decodeURIComponent(match[1]));
			if (!channel)
				return postiz ? json(500, POSTIZ.serverError) : json(404, { msg: 'channel not found' });
			state.channels = state.channels.filter((c) => c !== channel);
			return json(200, postiz ? POSTIZ.channelRecord(channel) : { success: true });
		}
		if (m === 'GET' && (match = /^\/analytics\/post\/([^/]+)$/.exec(route))) {
			return json(200, [
				{
					label: 'Likes',
					data: [{ total: 12, date: new Date(clock.now()).toISOString().slice(0, 10) }],
				},
				{
					label: 'Comments',
					data: [{ total: 3, date: new Date(clock.now()).toISOString().slice(0, 10) }],
				},
			]);
		}
		if (m === 'GET' && (match = /^\/analytics\/([^/]+)$/.exec(route))) {
			if (!state.channels.some((c) => c.id === decodeURIComponent(match[1])))
				return json(404, { msg: 'channel not found' });
			const days = Number(q.get('date') ?? 7) || 7;
			return json(200, [
				{
					label: 'Impressions',
					data: Array.from({ length: Math.min(days, 31) }, (_, i) => ({
						total: 100 + i,
						date: new Date(clock.now() - i * 864e5).toISOString().slice(0, 10),
					})),
				},
			]);
		}
		if (m === 'POST' && route === '/upload') {
			const file = await readMultipartFile(req);
			if (!file)
				throw badRequest([{ field: 'file', message: 'a multipart field "file" is required' }]);
			state.counts.uploads++;
			return json(
				200,
				mediaAnswer(storeMedia(file.filename || 'upload.bin', file.data, file.contentType)),
			);
		}
		if (m === 'POST' && route === '/upload-from-url') {
			const body = await readJson(req);
			let parsed;
			try {
				parsed = new URL(body.url);
			} catch {
				parsed = undefined;
			}
			if (!parsed || !['http:', 'https:'].includes(parsed.protocol))
				throw badRequest([{ field: 'url', message: 'must be a public http or https URL' }]);
			// Both refuse what they cannot fetch from outside (the real backend through its SSRF guard).
			if (
				/^(localhost|127\.|10\.|192\.168\.|\[::1\]|\[::ffff:(7f|a0|c0a8))/.test(parsed.hostname)
			) {
				return json(
					400,
					postiz
						? { msg: 'Failed to fetch URL' }
						: {
								msg: 'Validation failed',
								errors: [{ field: 'url', message: 'must be a public http or https URL' }],
							},
				);
			}
			const name = parsed.pathname.split('/').pop() || 'imported';
			return json(
				200,
				mediaAnswer(
					storeMedia(name, Buffer.from(`imported from ${parsed}`), 'application/octet-stream'),
				),
			);
		}
		if (m === 'GET' && route === '/media' && postiz)
			return json(404, {
				message: `Cannot GET /public/v1${route}`,
				error: 'Not Found',
				statusCode: 404,
			});
		if (m === 'GET' && route === '/media') {
			const page = Math.max(1, Number(q.get('page') ?? 1));
			const size = config.mediaPageSize;
			return json(200, {
				pages: Math.max(1, Math.ceil(state.media.length / size)),
				results: state.media.slice((page - 1) * size, page * size),
			});
		}
		if (m === 'POST' && route === '/posts') return json(200, createPosts(await readJson(req)));
		if (m === 'GET' && route === '/posts') {
			const start = Date.parse(q.get('startDate') ?? '');
			const end = Date.parse(q.get('endDate') ?? '');
			if (Number.isNaN(start) || Number.isNaN(end))
				throw badRequest([
					{ field: 'startDate', message: 'startDate and endDate must be ISO dates' },
				]);
			const listed = state.posts.filter(
				(p) => Date.parse(p.publishDate) >= start && Date.parse(p.publishDate) <= end,
			);
			const posts = postiz ? listed.map(postizPost) : listed;
			return json(200, config.postList === 'bare' ? posts : { posts });
		}
		if (m === 'DELETE' && (match = /^\/posts\/([^/]+)$/.exec(route))) {
			const post = state.posts.find((p) => p.id === decodeURIComponent(match[1]));
			if (!post)
				return postiz ? json(500, POSTIZ.serverError) : json(404, { msg: 'post not found' });
			const before = state.posts.length;
			state.posts = state.posts.filter((p) => p.group !== post.group);
			return json(200, postiz ? { error: true } : { deleted: before - state.posts.length });
		}
		if (m === 'GET' && (match = /^\/find-slot\/([^/]+)$/.exec(route))) {
			if (!state.channels.some((c) => c.id === decodeURIComponent(match[1])))
				return postiz ? json(500, POSTIZ.serverError) : json(404, { msg: 'channel not found' });
			const next = new Date(Math.ceil((clock.now() + 36e5) / 36e5) * 36e5);
			return json(200, { date: postiz ? next.toISOString().slice(0, 19) : next.toISOString() });
		}
		if (postiz)
			return json(404, {
				message: `Cannot ${m} /public/v1${route}`,
				error: 'Not Found',
				statusCode: 404,
			});
		return json(404, { msg: `no route ${m} ${route}` });
	}

	function createPosts(body) {
		state.lastPostBody = body;
		const errors = [];
		if (!['schedule', 'now', 'draft'].includes(body.type))
			errors.push({ field: 'type', message: 'must be schedule, now or draft' });
		if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(String(body.date)))
			errors.push({ field: 'date', message: 'must be ISO 8601 UTC with milliseconds' });
		if (!Array.isArray(body.posts) || body.posts.length === 0)
			errors.push({ field: 'posts', message: 'at least one channel' });
		(body.posts ?? []).forEach((p, i) => {
			const channel = state.channels.find((c) => c.id === p?.integration?.id);
			if (!channel)
				errors.push({ field: `posts[${i}].integration.id`, message: 'unknown channel' });
			else if (p.settings?.__type !== channel.identifier)
				errors.push({
					field: `posts[${i}].settings.__type`,
					message: `must be "${channel.identifier}"`,
				});
			else if (channel.identifier === 'x' && !p.settings.who_can_reply_post)
				errors.push({
					field: `posts[${i}].settings.who_can_reply_post`,
					message: 'is required for X',
				});
			if (!Array.isArray(p?.value) || p.value.length === 0)
				errors.push({ field: `posts[${i}].value`, message: 'at least one part' });
			for (const part of p?.value ?? [])
				for (const image of part.image ?? []) {
					if (!state.media.some((media) => media.id === image.id && media.path === image.path))
						errors.push({ field: `posts[${i}].value.image`, message: `unknown media ${image.id}` });
				}
		});
		const postiz = config.profile === 'postiz';
		if (postiz) {
			if (!Array.isArray(body.tags)) errors.push({ raw: 'tags must be an array' });
			else if (body.tags.some((tag) => !tag || typeof tag !== 'object'))
				errors.push({ raw: POSTIZ.tagsMessage });
			else
				body.tags.forEach((tag, i) =>
					['value', 'label'].forEach(
						(key) =>
							typeof tag[key] !== 'string' &&
							errors.push({ raw: `tags.${i}.${key} must be a string` }),
					),
				);
		}
		if (errors.length) throw badRequest(errors);
		const group = nextId('grp');
		// The real backend links only tags it has, and makes each channel its own group.
		const tags = postiz
			? body.tags.filter((tag) => POSTIZ.tags.includes(tag.value))
			: (body.tags ?? []);
		return body.posts.map((p) => {
			const post = {
				id: nextId('post'),
				group: postiz ? nextId('grp') : group,
				integration: p.integration.id,
				type: body.type,
				status: body.type === 'draft' ? 'draft' : 'scheduled',
				url: null,
				publishedAt: null,
				error: null,
				publishDate: body.date,
				content: p.value.map((v) => v.content).join('\n\n'),
				settings: JSON.stringify(p.settings),
				tags,
				shortLink: Boolean(body.shortLink),
				image: p.value.flatMap((v) => v.image ?? []),
				createdAt: new Date(clock.now()).toISOString(),
			};
			state.posts.push(post);
			state.counts.postsCreated++;
			return { postId: post.id, integration: p.integration.id };
		});
	}

	/** Upload answers: `{ id, path }` (the spec), or the whole media record (the real backend). */
	function mediaAnswer(media) {
		if (config.profile !== 'postiz') return { id: media.id, path: media.path };
		return {
			id: media.id,
			name: media.name,
			path: media.path,
			organizationId: 'org_sandbox',
			thumbnail: null,
			alt: null,
			createdAt: media.createdAt,
			updatedAt: media.createdAt,
			deletedAt: null,
		};
	}

	/** A post as the real backend lists it: the fields its list query selects, no more. */
	function postizPost(post) {
		const channel = state.channels.find((c) => c.id === post.integration) ?? {
			id: post.integration,
			name: '',
			identifier: '',
		};
		const states = { draft: 'DRAFT', scheduled: 'QUEUE', published: 'PUBLISHED', failed: 'ERROR' };
		return {
			id: post.id,
			content: post.content,
			publishDate: post.publishDate,
			releaseURL: post.url,
			submittedForOrganizationId: null,
			submittedForOrderId: null,
			state: states[post.status],
			intervalInDays: null,
			group: post.group,
			tags: post.tags.map((tag) => ({ tag: { name: tag.label ?? tag.value, color: '#6366f1' } })),
			integration: {
				id: channel.id,
				providerIdentifier: channel.identifier,
				name: channel.name,
				picture: channel.picture,
			},
		};
	}

	function storeMedia(name, data, contentType) {
		const safe = name.replace(/[^\w.-]/g, '_');
		const path = `/uploads/${nextId('up')}-${safe}`;
		state.files.set(path, { data, mime: contentType || 'application/octet-stream' });
		const media = {
			id: nextId('med'),
			name: safe,
			path,
			mimeType: contentType,
			size: data.length,
			createdAt: new Date(clock.now()).toISOString(),
		};
		state.media.unshift(media);
		return media;
	}

	/** Newest first: by creation (the order they were started), by completion with unfinished ones on top, or by last update. */
	function listedGenerations() {
		if (config.generationOrder === 'update')
			return [...state.generations].sort(
				(a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt),
			);
		if (config.generationOrder !== 'completion') return state.generations;
		const rank = (g) => (g.finishedAt ? Date.parse(g.finishedAt) : Infinity);
		return [...state.generations].sort((a, b) => rank(b) - rank(a));
	}

	function publicGeneration(g) {
		const { startedAt, input, ...rest } = g;
		if (!config.generationTimestamps)
			for (const key of ['createdAt', 'updatedAt', 'finishedAt']) delete rest[key];
		return rest;
	}

	function authorize(url, res, json) {
		const clientId = url.searchParams.get('client_id');
		const redirectUri = url.searchParams.get('redirect_uri');
		if (clientId !== config.clientId || !redirectUri)
			return json(400, { msg: 'unknown client_id or missing redirect_uri' });
		const challenge = url.searchParams.get('code_challenge');
		const method = url.searchParams.get('code_challenge_method');
		if (challenge && method && method !== 'S256')
			return json(400, { msg: 'only S256 is supported' });
		const code = nextId('code');
		state.codes.set(code, { redirectUri, challenge });
		// The sandbox's user approves at once: no login page to click through.
		const target = new URL(redirectUri);
		target.searchParams.set('code', code);
		if (url.searchParams.get('state'))
			target.searchParams.set('state', url.searchParams.get('state'));
		res.writeHead(302, { Location: target.toString() });
		res.end();
	}

	async function token(req, json) {
		const text = (await readBody(req)).toString('utf8');
		const type = String(req.headers['content-type'] ?? '');
		const body = type.includes('application/json')
			? JSON.parse(text || '{}')
			: Object.fromEntries(new URLSearchParams(text));
		let clientId = body.client_id;
		let clientSecret = body.client_secret;
		const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
		if (basic) [clientId, clientSecret] = Buffer.from(basic[1], 'base64').toString().split(':');
		state.tokenRequests.push({
			contentType: type,
			clientInBody: Boolean(body.client_id && body.client_secret),
			codeVerifier: Boolean(body.code_verifier),
		});
		if (body.grant_type !== 'authorization_code')
			return json(400, { error: 'unsupported_grant_type' });
		if (clientId !== config.clientId || clientSecret !== config.clientSecret)
			return json(401, { error: 'invalid_client' });
		const grant = state.codes.get(body.code);
		if (!grant || grant.redirectUri !== body.redirect_uri)
			return json(400, { error: 'invalid_grant' });
		if (grant.challenge) {
			const verifier = body.code_verifier ?? '';
			const expected = crypto.createHash('sha256').update(verifier).digest('base64url');
			if (expected !== grant.challenge)
				return json(400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
		}
		state.codes.delete(body.code);
		const accessToken = `scapp_${crypto.randomBytes(16).toString('hex')}`;
		state.tokens.set(accessToken, { clientId });
		return json(200, { access_token: accessToken, token_type: 'bearer' });
	}

	async function control(req, res, path, json) {
		if (path === '/__sandbox/state') {
			return json(200, {
				credits: state.credits,
				counts: state.counts,
				posts: state.posts,
				generations: state.generations.map(publicGeneration),
				channels: state.channels,
				media: state.media.length,
				authHeaders: state.authHeaders.slice(-50),
				tokenRequests: state.tokenRequests,
				tokens: [...state.tokens.keys()],
			});
		}
		if (path === '/__sandbox/reset' && req.method === 'POST') {
			reset();
			return json(200, { reset: true });
		}
		if (path === '/__sandbox/faults' && req.method === 'POST') {
			const fault = await readJson(req);
			state.faults.push({ count: 1, method: undefined, ...fault });
			return json(200, { faults: state.faults });
		}
		if (path === '/__sandbox/config' && req.method === 'POST') {
			Object.assign(config, await readJson(req));
			return json(200, { config });
		}
		if (path === '/__sandbox/finish' && req.method === 'POST') {
			// Body { ids } finishes only those, in that order (out-of-order completion); none: all.
			const { ids } = await readJson(req).catch(() => ({}));
			const chosen = Array.isArray(ids)
				? ids.map((id) => state.generations.find((g) => g.id === id)).filter(Boolean)
				: state.generations;
			for (const g of chosen)
				if (g.status === 'queued' || g.status === 'running') finishGeneration(g);
			return json(200, { finished: true });
		}
		if (path === '/__sandbox/touch' && req.method === 'POST') {
			const { ids = [] } = JSON.parse((await readBody(req)).toString() || '{}');
			for (const g of state.generations.filter((x) => ids.includes(x.id))) {
				g.updatedAt = new Date(Math.max(clock.now(), Date.parse(g.updatedAt) + 1)).toISOString();
				g.note = `changed at ${g.updatedAt}`;
			}
			return json(200, { touched: ids.length });
		}
		if (path === '/__sandbox/posts' && req.method === 'POST') {
			const { ids = [], status, publishDate, content } = await readJson(req);
			for (const post of state.posts.filter((p) => ids.includes(p.id))) {
				if (publishDate) post.publishDate = publishDate;
				if (content !== undefined) post.content = content;
				if (status === 'published' || status === 'failed') sendPost(post, clock.now(), status);
				else if (status) Object.assign(post, { status, url: null, publishedAt: null, error: null });
			}
			return json(200, { changed: ids.length });
		}
		if (path === '/__sandbox/token' && req.method === 'POST') {
			const accessToken = `scapp_${crypto.randomBytes(16).toString('hex')}`;
			state.tokens.set(accessToken, { clientId: config.clientId });
			return json(200, { access_token: accessToken, token_type: 'bearer' });
		}
		return json(404, { msg: 'no such control' });
	}

	function takeFault(method, path) {
		const index = state.faults.findIndex(
			(f) =>
				(!f.method || f.method === method) && new RegExp(f.path ?? '.').test(path) && f.count > 0,
		);
		if (index < 0) return undefined;
		const fault = state.faults[index];
		fault.count--;
		if (fault.count <= 0) state.faults.splice(index, 1);
		return fault;
	}

	const server = http.createServer((req, res) => {
		handle(req, res).catch((error) => {
			if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ msg: String(error.message) }));
		});
	});
	return {
		config,
		/** Finishes these generations now, in this order (tests in the same process). */
		finish(ids) {
			for (const id of ids) {
				const g = state.generations.find((x) => x.id === id);
				if (g && (g.status === 'queued' || g.status === 'running')) finishGeneration(g);
			}
		},
		get state() {
			return state;
		},
		reset,
		async listen(port = 0, host = '127.0.0.1') {
			await new Promise((resolve) => server.listen(port, host, resolve));
			return `http://${host}:${server.address().port}`;
		},
		async close() {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

function badRequest(errors) {
	return { status: 400, errors, body: { msg: 'Validation failed', errors } };
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function readBody(req) {
	const chunks = [];
	for await (const chunk of req) chunks.push(chunk);
	return Buffer.concat(chunks);
}
async function readJson(req) {
	const text = (await readBody(req)).toString('utf8');
	if (!text) return {};
	try {
		return JSON.parse(text);
	} catch {
		throw badRequest([{ field: 'body', message: 'is not valid JSON' }]);
	}
}

/** Parses multipart/form-data and returns the part named "file". */
async function readMultipartFile(req) {
	const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(req.headers['content-type'] ?? '');
	if (!boundary) return undefined;
	const body = await readBody(req);
	const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
	let start = body.indexOf(delimiter);
	while (start >= 0) {
		const next = body.indexOf(delimiter, start + delimiter.length);
		if (next < 0) break;
		const part = body.subarray(start + delimiter.length + 2, next - 2);
		const headerEnd = part.indexOf('\r\n\r\n');
		const headers = part.subarray(0, headerEnd).toString('utf8');
		const name = /name="([^"]*)"/i.exec(headers)?.[1];
		if (name === 'file') {
			return {
				filename: /filename="([^"]*)"/i.exec(headers)?.[1],
				contentType: /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1],
				data: part.subarray(headerEnd + 4),
			};
		}
		start = next;
	}
	return undefined;
}

function tinyPng() {
	return Buffer.from(
		'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
		'base64',
	);
}

module.exports = { createSandbox, DEFAULTS, FORMATS, CHANNELS };

if (require.main === module) {
	const port = Number(process.env.SANDBOX_PORT ?? process.argv[2] ?? 4010);
	const sandbox = createSandbox();
	sandbox.listen(port).then((url) => {
		console.log(
			`[sandbox] social-content sandbox on ${url} (API key: ${sandbox.config.apiKey}; OAuth client ${sandbox.config.clientId} / ${sandbox.config.clientSecret})`,
		);
	});
	const stop = () => sandbox.close().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}
