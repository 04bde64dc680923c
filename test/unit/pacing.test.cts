/**
 * The pacer against simulated limiters, in virtual time (no clocks, no waits): each shape the
 * spec leaves open, 1 and 10 requests at once, 3 and 30 ms latency. Real-time runs against the
 * sandbox are in test/integration/rateLimits.test.cts and `npm run bench` (batch rows).
 */
import { RequestPacer, type PacerTicket } from '../../nodes/shared/transport/pacing';
import { RetryAfterUnit, refusalLimit, refusalWait } from '../../nodes/shared/transport/rateLimit';
import { MIN_RATE_LIMIT_WAIT_MS } from '../../nodes/shared/transport';
import fc from 'fast-check';

type Limiter = (now: number) => number | undefined; // seconds to wait, or undefined when accepted
/**
 * How the 429s give `retryAfter`: exact fractions of seconds; whole seconds (rounded up) known to
 * be seconds (a Retry-After header beside them); or whole seconds with no header, which the
 * transport reads as milliseconds until the service shows they are seconds (as in `npm run bench`).
 */
type Waits = 'fractions' | 'whole seconds' | 'whole numbers, no header';

function tokenBucket(perSecond: number, burst: number): Limiter {
	let tokens = burst;
	let at = 0;
	return (now) => {
		tokens = Math.min(burst, tokens + ((now - at) / 1000) * perSecond);
		at = now;
		if (tokens >= 1) {
			tokens -= 1;
			return undefined;
		}
		return (1 - tokens) / perSecond;
	};
}

/** `limit` requests per window of `windowMs`; the windows start `phaseMs` into the run's time. */
function fixedWindow(limit: number, windowMs: number, phaseMs = 0): Limiter {
	let start = -1;
	let count = 0;
	return (at) => {
		const now = at + windowMs - phaseMs;
		const current = Math.floor(now / windowMs) * windowMs;
		if (current !== start) [start, count] = [current, 0];
		if (count < limit) {
			count++;
			return undefined;
		}
		return (current + windowMs - now) / 1000;
	};
}

function slidingLog(limit: number, windowMs: number): Limiter {
	const log: number[] = [];
	return (now) => {
		while (log.length && log[0] <= now - windowMs) log.shift();
		if (log.length < limit) {
			log.push(now);
			return undefined;
		}
		return (log[0] + windowMs - now) / 1000;
	};
}

/**
 * Runs `items` requests through the pacer as the transport does (a slot voided while held is taken
 * again; a refused request waits as long as the pacer says, then takes a new slot); a tiny event
 * loop in virtual time. `latencyMs`: from sending to the answer, the limiter deciding halfway.
 */
function simulate(
	limiter: Limiter,
	waits: Waits,
	concurrency: number,
	items: number,
	latencyMs = 3,
	/** Requests each item sends one after another (a list read page by page: many). */
	requestsPerItem = 1,
	/** The 429s' `limit` (the spec shows the field, not its meaning); none when undefined. */
	limit?: number,
) {
	const pacer = new RequestPacer();
	pacer.expectItems(items); // as the router does
	const unit = new RetryAfterUnit();
	const events: Array<[number, () => void]> = [];
	const at = (time: number, run: () => void) => events.push([time, run]);
	let now = 0;
	let seed = 7;
	const jitter = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 3; // timers fire late
	let next = 0;
	let sent = 0;
	let refused = 0;
	// Requests sent before the wait of a 429 already received had passed (whichever request it
	// answered), in the unit the wait was read in.
	let early = 0;
	let quietUntil = 0;
	const attempt = (done: () => void) => {
		const ticket: PacerTicket = pacer.ticket(now);
		at(Math.max(ticket.at, now) + jitter(), () => {
			if (!pacer.isCurrent(ticket)) return attempt(done);
			sent++;
			if (now < quietUntil) early++;
			const wait = limiter(now + latencyMs / 2);
			at(now + latencyMs, () => {
				if (wait === undefined) {
					pacer.accepted();
					unit.accepted();
					return done();
				}
				refused++;
				const seconds =
					waits === 'fractions' ? Number(wait.toFixed(3)) : Math.max(1, Math.ceil(wait));
				// As the transport reads it: the header, when there is one, says the unit.
				const headers = waits === 'whole seconds' ? { 'retry-after': String(seconds) } : {};
				const body = { retryAfter: seconds, limit };
				const asked = refusalWait(unit, pacer, { body, headers }, pacer.isCurrent(ticket), now);
				const waitMs = Math.max(asked.ms, MIN_RATE_LIMIT_WAIT_MS);
				quietUntil = Math.max(quietUntil, now + waitMs);
				const ownWaitMs = pacer.refused(
					now,
					waitMs,
					asked.wholeSeconds,
					ticket,
					refusalLimit(body),
				);
				at(now + ownWaitMs, () => attempt(done));
			});
		});
	};
	const worker = () => {
		if (next < items) {
			next++;
			pacer.itemStarted();
			let left = requestsPerItem;
			const request = () => {
				if (--left > 0) return attempt(request);
				pacer.itemDone();
				worker();
			};
			attempt(request);
		}
	};
	for (let i = 0; i < concurrency; i++) worker();
	while (events.length) {
		let first = 0;
		for (let i = 1; i < events.length; i++) if (events[i][0] < events[first][0]) first = i;
		const [time, run] = events.splice(first, 1)[0];
		now = time;
		run();
	}
	return { seconds: now / 1000, sent, refused, early };
}

/**
 * A token bucket of burst 20 whose refill rate another workflow's share changes over time (`rateAt`
 * requests a second at each moment), starting with `startTokens`.
 */
function sharedBucket(rateAt: (now: number) => number, startTokens = 20): Limiter {
	let tokens = startTokens;
	let last = 0;
	return (now) => {
		const rate = rateAt(now);
		tokens = Math.min(20, tokens + ((now - last) / 1000) * rate);
		last = now;
		if (tokens >= 1) {
			tokens -= 1;
			return undefined;
		}
		return (1 - tokens) / rate;
	};
}

/**
 * Limiters that all allow 20 requests a second on average, with bursts from 5 to 100, and each
 * `limit` their 429s could say (the spec shows the field, not its meaning): a window's count or a
 * bucket's rate a second (as the sandbox does), a bucket's burst, a window's rate a second.
 */
const limiters: Array<[string, () => Limiter, number[]]> = [
	['token bucket 20/s, burst 20', () => tokenBucket(20, 20), [20]],
	['token bucket 20/s, burst 5', () => tokenBucket(20, 5), [20, 5]],
	['token bucket 20/s, burst 100', () => tokenBucket(20, 100), [20, 100]],
	['fixed window 10 per 500 ms', () => fixedWindow(10, 500), [10, 20]],
	['fixed window 20 per second', () => fixedWindow(20, 1000), [20]],
	['fixed window 100 per 5 s', () => fixedWindow(100, 5000), [100, 20]],
	['sliding window 10 per 500 ms', () => slidingLog(10, 500), [10, 20]],
];

describe('pacing: 1,000 requests reach the allowed rate with few 429s', () => {
	const cases = limiters.flatMap(([name, make, limits]) =>
		[...limits, undefined].flatMap((limit) =>
			(['fractions', 'whole seconds', 'whole numbers, no header'] as const).flatMap((waits) =>
				[1, 10].flatMap((concurrency) =>
					[3, 30].map(
						(latency) =>
							[
								`${name}, ${limit ? `limit ${limit}` : 'no limit'}, retryAfter in ${waits}, ${concurrency} at once, ${latency} ms latency`,
								make,
								waits,
								concurrency,
								latency,
								limit,
							] as const,
					),
				),
			),
		),
	);
	test.each(cases)('%s', (name, make, waits, concurrency, latency, limit) => {
		const result = simulate(make(), waits, concurrency, 1000, latency, 1, limit);
		const rate = 1000 / result.seconds;
		// eslint-disable-next-line no-console -- the measured rate is the point of reading the log
		console.log(
			`${name}: ${rate.toFixed(1)} req/s (${(rate / 20).toFixed(3)}× allowed), 429 ${result.refused} of ${result.sent} (${((100 * result.refused) / result.sent).toFixed(1)} %)`,
		);
		expect(result.early).toBe(0);
		// Whole seconds, 10 at once: every 429 pauses the run for a whole second (nothing goes out
		// sooner), and small bursts hide a pace a little too fast for a while, so a few 429s cost up
		// to a tenth of the run here (0.872 at worst). Still open in #24 (see the note).
		expect(rate / 20).toBeGreaterThanOrEqual(
			waits !== 'fractions' && concurrency === 10 ? 0.85 : 0.9,
		);
		expect(result.refused / result.sent).toBeLessThanOrEqual(0.05);
	});

	test.each(
		(['fractions', 'whole seconds', 'whole numbers, no header'] as const).flatMap((waits) =>
			[1, 10].map((concurrency) => [waits, concurrency] as const),
		),
	)(
		'squeezed, then released (a bucket shared from 10 s to 40 s), retryAfter in %s, %i at once: back to the allowed rate within seconds',
		(waits, concurrency) => {
			const limiter = sharedBucket((now) => (now >= 10_000 && now < 40_000 ? 5 : 20));
			const result = simulate(limiter, waits, concurrency, 2000);
			const idealSeconds = 40 + (2000 - 350) / 20;
			// eslint-disable-next-line no-console -- as above
			console.log(
				`squeeze then release, ${waits}, ${concurrency} at once: ${result.seconds.toFixed(1)} s (ideal ${idealSeconds}), 429 ${result.refused} of ${result.sent}`,
			);
			expect(result.early).toBe(0);
			expect(idealSeconds / result.seconds).toBeGreaterThanOrEqual(0.67);
			expect(result.refused / result.sent).toBeLessThanOrEqual(0.05);
		},
	);

	/** A token bucket (burst 20) that refills at `low` a second until `riseAtMs`, then at 20. */
	const rising = (riseAtMs: number, low: number, startTokens = 20) =>
		sharedBucket((now) => (now < riseAtMs ? low : 20), startTokens);

	test.each(
		[300, 2000].flatMap((items) =>
			(['fractions', 'whole seconds', 'whole numbers, no header'] as const).flatMap((waits) =>
				[1, 10].map((concurrency) => [items, waits, concurrency] as const),
			),
		),
	)(
		'a limit that rises (2/s for 20 s, then 20/s), %i items, retryAfter in %s, %i at once: found within seconds, ≤ 1.5 × the ideal time',
		(items, waits, concurrency) => {
			const result = simulate(rising(20_000, 2), waits, concurrency, items);
			// The bucket's 20, 2 a second for 20 s, then 20 a second.
			const idealSeconds = 20 + (items - 60) / 20;
			// eslint-disable-next-line no-console -- the measured time is the point of reading the log
			console.log(
				`limit rises, ${items} items, ${waits}, ${concurrency} at once: ${result.seconds.toFixed(1)} s (ideal ${idealSeconds}), 429 ${result.refused} of ${result.sent}`,
			);
			expect(result.early).toBe(0);
			expect(result.seconds / idealSeconds).toBeLessThanOrEqual(1.5);
			// Header-less waits are read as milliseconds until three 429s in a row show otherwise.
			expect(result.refused / result.sent).toBeLessThanOrEqual(0.15);
		},
	);

	test.each([
		['at 10 s', 10_000, 2, 20],
		['at 60 s', 60_000, 2, 20],
		['from 5/s', 20_000, 5, 20],
		['with the bucket already drained by the other workflow', 20_000, 2, 0],
		['from 1/s at 40 s, drained', 40_000, 1, 0],
	] as const)(
		'a limit that rises %s (2,000 items, whole-second waits, 10 at once): ≤ 1.3 × the ideal time',
		(_name, riseAtMs, low, startTokens) => {
			const result = simulate(rising(riseAtMs, low, startTokens), 'whole seconds', 10, 2000);
			const idealSeconds = riseAtMs / 1000 + (2000 - startTokens - (low * riseAtMs) / 1000) / 20;
			expect(result.early).toBe(0);
			expect(result.seconds / idealSeconds).toBeLessThanOrEqual(1.3);
		},
	);

	test('a limit that rises at a random time, from a random rate, with a random run: after the rise, within seconds of the ideal (seeded property test)', () => {
		const kinds = ['fractions', 'whole seconds', 'whole numbers, no header'] as const;
		fc.assert(
			fc.property(
				fc.integer({ min: 5, max: 90 }),
				fc.integer({ min: 1, max: 8 }),
				fc.integer({ min: 0, max: 20 }),
				fc.integer({ min: 1, max: 10 }),
				fc.constantFrom(...kinds),
				fc.integer({ min: 2, max: 40 }),
				(riseAtS, low, startTokens, concurrency, waits, afterS) => {
					// Enough items to run `afterS` seconds past the rise at the allowed rate.
					const before = startTokens + low * riseAtS;
					const items = before + 20 * afterS;
					const result = simulate(
						rising(riseAtS * 1000, low, startTokens),
						waits,
						concurrency,
						items,
					);
					expect(result.early).toBe(0);
					// What follows the rise: the ideal `afterS` at 20/s, plus at most 25 s to find it
					// (the next try may be up to 20 s away; climbing to 20/s takes a few seconds).
					expect(result.seconds - riseAtS).toBeLessThanOrEqual(1.5 * afterS + 25);
				},
			),
			{ seed: 40, numRuns: 60 },
		);
	});

	test.each(
		[20, undefined].flatMap((limit) =>
			(['whole seconds', 'whole numbers, no header'] as const).flatMap((waits) =>
				[1, 10].flatMap((concurrency) =>
					[3, 10, 30, 100, 300].map(
						(latency) =>
							[limit ? `limit ${limit}` : 'no limit', waits, concurrency, latency, limit] as const,
					),
				),
			),
		),
	)(
		'a short run (200 items, fixed window of 20 a second), 429s with %s, retryAfter in %s, %i at once, %i ms latency: near the rate allowed (or that the latency allows) wherever the run starts in the window',
		(limitText, waits, concurrency, latency, limit) => {
			// One at a time, slow answers cap the rate below the window's (10/s at 100 ms).
			const reachable = Math.min(20, (concurrency * 1000) / latency);
			// The run starts anywhere in a window: every 50 ms of it.
			const ratios = Array.from({ length: 20 }, (_, i) => {
				const limiter = fixedWindow(20, 1000, i * 50);
				const result = simulate(limiter, waits, concurrency, 200, latency, 1, limit);
				expect(result.early).toBe(0);
				return 200 / result.seconds / reachable;
			}).sort((a, b) => a - b);
			// eslint-disable-next-line no-console -- the measured rates are the point of reading the log
			console.log(
				`short run, ${limitText}, ${waits}, ${concurrency} at once, ${latency} ms: ${ratios[0].toFixed(3)}× reachable at worst, ${ratios[10].toFixed(3)}× median`,
			);
			// With the 429's `limit`, a slow first burst that straddled the window's reset counts one
			// window: 0.84 at worst at any latency (0.839 with no header, 10 at once, 100 ms, where a
			// fast first burst's time guess is too high once). Without it one burst cannot tell a
			// straddled reset from a bigger window: fast answers ≥ 0.85, slow ones (30-300 ms) 0.72 at
			// worst (docs/requests.md), held at what they reach, so it gets no worse.
			const slowBlind = latency >= 30 && limit === undefined;
			expect(ratios[0]).toBeGreaterThanOrEqual(slowBlind ? 0.7 : 0.83);
			expect(ratios[10]).toBeGreaterThanOrEqual(slowBlind ? 0.73 : 0.86);
		},
	);

	test.each(
		(['fractions', 'whole seconds', 'whole numbers, no header'] as const).flatMap((waits) =>
			[
				[1, 1499],
				[3, 499],
			].map(([items, perItem]) => [items, perItem, waits] as const),
		),
	)(
		'%i item(s) of %i requests each (Get Many, Return All): a limit that rises (2/s for 20 s, then 20/s) is found, ≤ 1.5 × the ideal time; retryAfter in %s',
		(items, perItem, waits) => {
			const total = items * perItem;
			const result = simulate(rising(20_000, 2), waits, 1, items, 3, perItem);
			const idealSeconds = 20 + (total - 60) / 20;
			// eslint-disable-next-line no-console -- the measured time is the point of reading the log
			console.log(
				`limit rises, ${items} × ${perItem} requests, ${waits}: ${result.seconds.toFixed(1)} s (ideal ${idealSeconds}), 429 ${result.refused} of ${result.sent}`,
			);
			expect(result.early).toBe(0);
			expect(result.seconds / idealSeconds).toBeLessThanOrEqual(1.5);
		},
	);

	test.each(['fractions', 'whole seconds', 'whole numbers, no header'] as const)(
		'one item of 1,999 requests, squeezed then released (a bucket shared from 10 s to 40 s), retryAfter in %s: ≤ 1.5 × the ideal time',
		(waits) => {
			const limiter = sharedBucket((now) => (now >= 10_000 && now < 40_000 ? 5 : 20));
			const result = simulate(limiter, waits, 1, 1, 3, 1999);
			const idealSeconds = 40 + (1999 - 350) / 20;
			// eslint-disable-next-line no-console -- as above
			console.log(
				`squeeze then release, 1 × 1,999 requests, ${waits}: ${result.seconds.toFixed(1)} s (ideal ${idealSeconds}), 429 ${result.refused} of ${result.sent}`,
			);
			expect(result.early).toBe(0);
			expect(result.seconds / idealSeconds).toBeLessThanOrEqual(1.5);
		},
	);

	test('few items of many requests against a fixed window of 20 a second, started anywhere in the window: ≥ 0.77 × the allowed rate (seeded property test)', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 5 }),
				fc.integer({ min: 30, max: 400 }),
				fc.integer({ min: 0, max: 999 }),
				fc.integer({ min: 1, max: 10 }),
				fc.constantFrom('whole seconds', 'whole numbers, no header'),
				(items, perItem, phaseMs, latency, waits) => {
					const result = simulate(
						fixedWindow(20, 1000, phaseMs),
						waits,
						1,
						items,
						latency,
						perItem,
					);
					expect(result.early).toBe(0);
					expect((items * perItem) / 20 / result.seconds).toBeGreaterThanOrEqual(0.77);
				},
			),
			{ seed: 42, numRuns: 100 },
		);
	});

	test('runs of any size against a fixed window of 20 a second, with whole-second waits, with and without the 429 limit, started anywhere in the window: ≥ 0.77 × the allowed rate (seeded property test)', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 30, max: 700 }),
				fc.integer({ min: 0, max: 999 }),
				fc.integer({ min: 1, max: 10 }),
				fc.integer({ min: 1, max: 10 }),
				fc.constantFrom('whole seconds', 'whole numbers, no header'),
				fc.constantFrom(20, undefined),
				(items, phaseMs, concurrency, latency, waits, limit) => {
					const result = simulate(
						fixedWindow(20, 1000, phaseMs),
						waits,
						concurrency,
						items,
						latency,
						1,
						limit,
					);
					expect(result.early).toBe(0);
					// The lowest of 1,500 random runs was 0.78× (0.69× before runs said their size).
					expect(items / 20 / result.seconds).toBeGreaterThanOrEqual(0.77);
				},
			),
			{ seed: 41, numRuns: 200 },
		);
	});

	test('a faster pace is tried only while what is left of the run could win back a failed try', () => {
		/** Pace after a burst of 20, a whole-second 429, and 3 s of the first guess holding. */
		const paceRatio = (items?: number) => {
			const pacer = new RequestPacer();
			if (items !== undefined) pacer.expectItems(items);
			const send = (at: number) => {
				pacer.itemStarted();
				pacer.accepted();
				pacer.itemDone();
				return at;
			};
			let now = 0;
			for (let i = 0; i < 20; i++) now = send(pacer.ticket(now).at) + 5;
			pacer.refused(now, 1000, true, pacer.ticket(now));
			const guess = pacer.requestsPerSecond;
			while (now < 4100) now = send(pacer.ticket(now).at);
			return pacer.requestsPerSecond / guess;
		};
		expect(paceRatio()).toBeCloseTo(1.2, 5); // a run that does not say its size (a trigger's poll)
		expect(paceRatio(10_000)).toBeCloseTo(1.2, 5); // much left
		expect(paceRatio(150)).toBe(1); // ~35 left: a 429's whole second could not be won back
	});

	test('a service that refuses everything for a while does not slow the run to a crawl afterwards', () => {
		let open = false;
		const bucket = tokenBucket(20, 20);
		const result = simulate(
			(now) => (open || (open = now > 5000) ? bucket(now) : 1),
			'fractions',
			1,
			300,
		);
		expect(300 / (result.seconds - 5)).toBeGreaterThanOrEqual(18);
	});

	test('a 429 at a learned pace pauses every request of the run and voids the slots handed out', () => {
		const pacer = new RequestPacer();
		for (let i = 0; i < 10; i++) {
			pacer.ticket(0);
			pacer.accepted();
		}
		pacer.refused(5, 1000, true, pacer.ticket(5)); // whole seconds: the burst gives the first pace
		expect(pacer.requestsPerSecond).toBeLessThan(Infinity);
		const sending = pacer.ticket(2000);
		const waiting = pacer.ticket(2000);
		expect(waiting.at).toBeGreaterThan(2000);
		pacer.refused(2010, 300, false, sending);
		expect(pacer.isCurrent(waiting)).toBe(false); // its holder takes a new slot instead of sending
		expect(pacer.ticket(2020).at).toBeGreaterThanOrEqual(2310);
	});

	test("a whole-second 429's `limit`: a slow first burst that got more through straddled a reset and counts one window; one that got it through is not guessed lower for being slow", () => {
		/** First pace after `accepted` answers at 300 ms (10 at once), then a 429 asking 1 s. */
		const firstPace = (accepted: number, limit?: number) => {
			const pacer = new RequestPacer();
			let now = 0;
			for (let sent = 0; sent < accepted; sent += 10) {
				for (let i = 0; i < Math.min(10, accepted - sent); i++) pacer.ticket(now);
				now += 300;
				for (let i = 0; i < Math.min(10, accepted - sent); i++) pacer.accepted();
			}
			pacer.refused(now + 300, 1000, true, pacer.ticket(now), limit);
			return pacer.requestsPerSecond;
		};
		// 40 through in 1.5 s: two windows of 20 (0.95 × 20 a second), not 21 a second.
		expect(firstPace(40, 20)).toBeCloseTo(19, 5);
		expect(firstPace(40)).toBeGreaterThan(20);
		// 20 through in 0.9 s: one whole window, not 15.8 a second for the answers' slowness.
		expect(firstPace(20, 20)).toBeCloseTo(19, 5);
		expect(firstPace(20)).toBeLessThan(16);
		// A limit the burst did not reach (a bucket's burst smaller than its rate) changes nothing.
		expect(firstPace(20, 1200)).toBeCloseTo(firstPace(20), 5);
	});

	test('the refused request waits as long as the rest of the run: the whole wait asked, in either unit', () => {
		const pacer = new RequestPacer();
		expect(pacer.refused(10, 2000, true, pacer.ticket(0))).toBe(2000);
		expect(pacer.ticket(20).at).toBe(2010); // the others resume with it, not sooner
		expect(pacer.refused(1700, 250, false, pacer.ticket(1610))).toBe(250);
		expect(pacer.refused(2000, 0, false, pacer.ticket(1950))).toBe(0); // the transport puts its floor under it
	});

	test('a 429 for a request sent before the last change of pace leaves the pace alone, but its wait is kept', () => {
		const pacer = new RequestPacer();
		const early = pacer.ticket(0);
		const late = pacer.ticket(0);
		pacer.refused(10, 1000, false, early); // first 429: everyone waits, the pace is being measured
		expect(pacer.isCurrent(late)).toBe(false); // its holder takes a new slot, after the pause
		expect(pacer.refused(12, 1000, false, late)).toBe(1000); // sent before that: nothing new; it waits as asked
		expect(pacer.ticket(20).at).toBe(1012); // and nothing goes out before its wait has passed either
		expect(pacer.requestsPerSecond).toBe(Infinity);
	});
	test('waits that prove to be seconds (no header): the first burst gives the pace at once, no second burst is refused to measure it again', () => {
		const pacer = new RequestPacer();
		for (let i = 0; i < 10; i++) {
			pacer.ticket(i * 4);
			pacer.accepted();
		}
		// "retryAfter: 1" read as milliseconds: the transport waits its 50 ms floor, the service refuses again.
		pacer.refused(40, 50, false, pacer.ticket(40));
		pacer.refused(95, 50, false, pacer.ticket(95));
		pacer.pause(150 + 1000); // the third refusal shows the unit: a whole second
		pacer.relearn(1000);
		expect(pacer.requestsPerSecond).toBeGreaterThan(10); // 10 in 40 ms, then a wait under a second
		expect(pacer.requestsPerSecond).toBeLessThan(40);
		const first = pacer.ticket(200);
		const second = pacer.ticket(200);
		expect(first.at).toBe(1150); // nothing before the wait
		expect(second.at - first.at).toBeCloseTo(1000 / pacer.requestsPerSecond, 5); // paced, not a burst
		// Once it holds, the next pace tried is a small step up: a 429 costs a whole second here.
		const guess = pacer.requestsPerSecond;
		let now = second.at;
		for (let i = 0; i < 1000 && pacer.requestsPerSecond === guess; i++) {
			now = pacer.ticket(now).at;
			pacer.accepted();
		}
		expect(pacer.requestsPerSecond / guess).toBeCloseTo(1.2, 5);
	});

	test('waits that prove to be seconds after a pace has held (a squeeze): the pace that held is kept, so the run climbs back to it later', () => {
		const pacer = new RequestPacer();
		const acceptUntil = (from: number, until: number) => {
			let now = from;
			for (let i = 0; i < 10_000 && now < until; i++) {
				now = Math.max(now + 1, pacer.ticket(now).at);
				pacer.accepted();
			}
			return now;
		};
		let now = acceptUntil(0, 20); // a burst
		pacer.refused(now, 50, false, pacer.ticket(now)); // short waits: one more cycle measures the rate
		now = acceptUntil(now + 50, now + 100);
		pacer.refused(now, 50, false, pacer.ticket(now));
		expect(pacer.requestsPerSecond).toBeLessThan(Infinity);
		now = acceptUntil(now + 50, now + 5000); // it holds: confirmed (and the next one probed)
		const held = pacer.requestsPerSecond;
		pacer.pause(now + 1000);
		pacer.relearn(1000);
		expect(pacer.requestsPerSecond).toBe(held);
		expect(pacer.ticket(now).at).toBe(now + 1000);
	});
});
