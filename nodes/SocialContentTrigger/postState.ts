import type { PostRecord } from '../shared/shapes';
import { KeyMemory } from './idMemory';

/**
 * What the trigger remembers of posts, and how it decides which went out or failed since. GET
 * /posts lists a date range, unordered, unpaged; a post's date is when it is due. So:
 * 1. Outcomes (`final`): "id|published", "id|failed|due date" and "id|failed". A publication held
 *    never fires again; a failure at a new date is judged by rules 2 and 3. Invisible: a post that
 *    fails again at the same date with no read between that shows it waiting.
 * 2. Waiting (`waiting`): ids read queued, scheduled or drafts. One read later with an outcome
 *    fires; one read failed and then published fires; one waiting again loses its outcomes.
 * 3. Due dates: a post never read waiting fires when due no earlier than LATE_GRACE_MS before the
 *    last read; an older date means it was moved there.
 * A read with no posts moves nothing. At most MAX_FINAL + MAX_WAITING hashes, oldest give way.
 */
export interface PostEventState {
	v: 1;
	/** Writes so far: tells which of two copies is newer (see pollStore.ts). */
	seq: number;
	/** Hashes of outcomes and occurrences read, newest first, base64. */
	final: string;
	/** Hashes of ids read waiting, newest first, base64. */
	waiting: string;
	/** n8n's clock (ms) at the last read that showed posts. */
	readAtMs: number;
	/** The account the state belongs to (see pollStore.ts). */
	account?: string;
}

/** Outcomes held (a failed one takes two keys). */
export const MAX_FINAL = 3000;
export const MAX_WAITING = 1000;
/** A post due this long before the last read, unknown, and sent: moved there, not new. */
export const LATE_GRACE_MS = 15 * 60_000;
/** Dates read each poll: from this long before the last read (a post that goes out late stays in view)… */
export const LOOKBACK_MS = 7 * 86_400_000;
/** …but never further back than this (an outage longer than it loses what went out then)… */
export const MAX_LOOKBACK_MS = 90 * 86_400_000;
/** …to this far ahead (a service clock ahead of n8n's; posts due soon are known waiting early). */
export const LOOKAHEAD_MS = 86_400_000;

/** The range of dates a poll reads. At activation, as far back as allowed: the more outcomes held, the fewer a move can fake. */
export function postWindow(
	state: PostEventState | undefined,
	nowMs: number,
): { startMs: number; endMs: number } {
	const from = state ? Math.min(nowMs, state.readAtMs) - LOOKBACK_MS : nowMs - MAX_LOOKBACK_MS;
	return { startMs: Math.max(from, nowMs - MAX_LOOKBACK_MS), endMs: nowMs + LOOKAHEAD_MS };
}

/** The state at activation: every outcome read is old; waiting posts are remembered. */
export function baselinePosts(posts: PostRecord[], readAtMs: number): PostEventState {
	const none = { v: 1 as const, seq: 0, final: '', waiting: '', readAtMs: -Infinity };
	return decidePosts(none, posts, readAtMs, false).next;
}

/** Which posts of this read went out or failed since the state, oldest first, and the state after. */
export function decidePosts(
	state: PostEventState,
	posts: PostRecord[],
	readAtMs: number,
	fires = true,
): { fired: PostRecord[]; next: PostEventState } {
	const final = new KeyMemory(state.final);
	const waiting = new KeyMemory(state.waiting);
	const dueSinceMs = state.readAtMs - LATE_GRACE_MS;
	const fired: PostRecord[] = [];
	// Oldest first, so when the memory is full what gives way is the oldest, never a recent post.
	for (const post of oldestFirst(onePerId(posts))) {
		const date = post.date?.toISOString() ?? '';
		if (post.status === 'waiting') {
			// Queued again: its next outcome, at this date or another, is a new event.
			for (const key of [`${post.id}|published`, `${post.id}|failed`, `${post.id}|failed|${date}`])
				final.delete(key);
			waiting.add(post.id);
			continue;
		}
		if (!hasOutcome(post)) continue; // no state given: nothing to tell
		// A publication is one event whatever its date and link; a failure is one per date.
		const occurrence =
			post.status === 'published' ? `${post.id}|published` : `${post.id}|failed|${date}`;
		if (final.has(occurrence)) continue;
		// Read failed before (then retried and published between two reads): a new outcome.
		const changed = post.status === 'published' && final.has(`${post.id}|failed`);
		if (
			fires &&
			(waiting.has(post.id) ||
				changed ||
				(post.date !== undefined && post.date.getTime() >= dueSinceMs))
		)
			fired.push(post);
		final.add(occurrence);
		if (post.status === 'failed') final.add(`${post.id}|failed`);
		waiting.delete(post.id);
	}
	const next: PostEventState = {
		v: 1,
		seq: state.seq + 1,
		final: final.encode(MAX_FINAL),
		waiting: waiting.encode(MAX_WAITING),
		readAtMs,
	};
	return { fired: oldestFirst(fired), next };
}

/** A repeating post is listed once per occurrence: one record per id, an outcome before waiting. */
function onePerId(posts: PostRecord[]): PostRecord[] {
	const byId = new Map<string, PostRecord>();
	for (const post of posts) {
		const held = byId.get(post.id);
		if (!held || (!hasOutcome(held) && hasOutcome(post))) byId.set(post.id, post);
	}
	return [...byId.values()];
}

const hasOutcome = (post: PostRecord) => post.status === 'published' || post.status === 'failed';

/** When it went out where the service says, else when it was due; the list's order breaks ties. */
export function postTimeMs(post: PostRecord): number {
	return (post.publishedAt ?? post.date)?.getTime() ?? 0;
}

function oldestFirst(posts: PostRecord[]): PostRecord[] {
	return posts
		.map((post, index) => ({ post, index }))
		.sort((a, b) => postTimeMs(a.post) - postTimeMs(b.post) || a.index - b.index)
		.map(({ post }) => post);
}

export function isPostState(state: unknown): state is PostEventState {
	return (
		(state as PostEventState | undefined)?.v === 1 &&
		typeof (state as PostEventState).readAtMs === 'number'
	);
}
